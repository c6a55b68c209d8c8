#!/usr/bin/env python3
"""Prints, for scripts/build-opening-book, the openers the book studies in a language: comma-separated, the ones
people play first.

English: no ranking of every opener people play is published. The New York Times reported the five most played
(ADIEU 6 %, STARE 4.9 %, SLATE 3.9 %, AUDIO 3.6 %, RAISE 3.1 %: 515 million games, December 2022 to November
2023); next come the openers the press and solvers recommend, then, as a stand-in for the rest, the original
game's answers with five different letters, most frequent first by wordfreq 3.1.1 (players open with words they
know). Spanish: the openers a family played in the issue that asked for this book, then the most frequent words
(wordfreq) of the Spanish familiar vocabulary with five different letters and at least two vowels.

    opening-book-openers.py LANGUAGE COUNT [ORIGINAL_ANSWERS]
"""
import re
import sys
import unicodedata
from pathlib import Path

from wordfreq import zipf_frequency

MOST_PLAYED = ["adieu", "stare", "slate", "audio", "raise"]
RECOMMENDED = ["crane", "salet", "trace", "crate", "slant", "roate", "soare", "arise", "irate", "later",
               "alert", "tears", "heart", "party", "merry", "clare", "peart", "tarse"]
FAMILY_SPANISH = ["arbol", "nueva", "opaco", "terso", "salta", "carta", "salsa", "casta", "sacro", "aireo"]
ROOT = Path(__file__).resolve().parent.parent


def source_words(name, label):
    text = (ROOT / f"Sources/TesseraCore/WordLists/WordListSource+{name}.swift").read_text(encoding="utf-8")
    return [set(words.split()) for words in re.findall(label + r':\s*"([^"]*)"', text)]


def spanish_frequency(word):
    """The highest Zipf frequency of the word or a spelling of it with one accented vowel (arbol: árbol)."""
    accents = {"a": "á", "e": "é", "i": "í", "o": "ó", "u": "ú"}
    spellings = [word] + [word[:i] + accents[c] + word[i + 1:] for i, c in enumerate(word) if c in accents]
    return max(zipf_frequency(s, "es") for s in spellings)


def main():
    language, count = sys.argv[1], int(sys.argv[2])
    if language == "en":
        name = "English"
        ranked = MOST_PLAYED + RECOMMENDED
        original = Path(sys.argv[3]).read_text(encoding="utf-8").split()
        ranked += sorted((w for w in original if len(set(w)) == 5), key=lambda w: (-zipf_frequency(w, "en"), w))
    else:
        name = "Spanish"
        familiar = source_words(name, "familiar")[0] | source_words(name, "answers")[-1]
        sensible = [w for w in familiar if len(set(w)) == 5 and sum(c in "aeiou" for c in w) >= 2]
        ranked = FAMILY_SPANISH + sorted(sensible, key=lambda w: (-spanish_frequency(w), w))
    allowed = source_words(name, "guesses")[0] | source_words(name, "answers")[-1]
    chosen = []
    for word in ranked:
        word = unicodedata.normalize("NFC", word)
        if word in allowed and word not in chosen:
            chosen.append(word)
        if len(chosen) == count:
            break
    print(",".join(chosen))


if __name__ == "__main__":
    main()
