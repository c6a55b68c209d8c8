import TesseraCore

/// Share texts of the original publisher's other puzzles as people paste them: each game's own shape (read from
/// shares posted publicly), with and without the name line, link or theme, squares with U+FE0F or spaces, CRLF,
/// text around them; and near misses that must not count.
enum PuzzleShareCorpus {
    static let connections: [(text: String, puzzle: Int, mistakes: Int, solved: Bool)] = [
        ("Connections\nPuzzle #687\n🟩🟦🟩🟩\n🟪🟪🟪🟪\n🟦🟦🟦🟦\n🟨🟨🟨🟨\n🟩🟩🟩🟩", 687, 1, true),
        ("Connections\nPuzzle #603\n🟩🟩🟩🟩\n🟨🟨🟨🟨\n🟪🟪🟪🟪\n🟦🟦🟦🟦", 603, 0, true),
        ("Connections \nPuzzle #567\n🟨🟨🟨🟨\n🟩🟩🟩🟩\n🟦🟦🟦🟦\n🟪🟪🟪🟪", 567, 0, true),
        ("Connections \nPuzzle #567\n🟨🟩🟨🟨\n🟨🟨🟨🟨\n🟩🟩🟩🟩\n🟦🟦🟦🟦\n🟪🟪🟪🟪", 567, 1, true),
        ("Puzzle #869\n🟩🟪🟩🟩\n🟦🟦🟦🟦\n🟩🟩🟩🟩\n🟪🟪🟪🟪\n🟨🟨🟨🟨", 869, 1, true),
        ("Puzzle #872\n🟪🟪🟪🟪\n🟨🟨🟨🟨\n🟩🟦🟩🟩\n🟩🟩🟩🟩\n🟦🟦🟦🟦", 872, 1, true),
        ("Puzzle #884\n🟨🟨🟨🟨\n🟩🟪🟪🟩\n🟪🟪🟪🟪\n🟩🟩🟩🟩\n🟦🟦🟦🟦", 884, 1, true),
        ("Connections\nPuzzle #885\n🟦🟦🟦🟦\n🟨🟨🟨🟨\n🟪🟪🟪🟪\n🟩🟩🟩🟩", 885, 0, true),
        ("Connections\nPuzzle #920\n🟩🟩🟨🟩\n🟨🟨🟨🟨\n🟦🟦🟦🟦\n🟩🟩🟩🟩\n🟪🟪🟪🟪", 920, 1, true),
        ("Connections\nPuzzle #932\n🟦🟦🟦🟦\n🟩🟪🟪🟪\n🟩🟪🟪🟪\n🟨🟨🟨🟨\n🟪🟪🟪🟪\n🟩🟩🟩🟩", 932, 2, true),
        ("Connections\nPuzzle #939\n🟦🟪🟩🟩\n🟩🟩🟩🟩\n🟦🟦🟦🟦\n🟨🟨🟨🟨\n🟪🟪🟪🟪", 939, 1, true),
        ("Connections\nPuzzle #940\n🟪🟦🟩🟨\n🟨🟨🟨🟨\n🟪🟪🟪🟪\n🟦🟦🟦🟦\n🟩🟩🟩🟩", 940, 1, true),
        ("Connections\nPuzzle #970\n🟦🟦🟦🟦\n🟪🟪🟪🟪\n🟩🟩🟩🟩\n🟨🟨🟨🟨", 970, 0, true),
        ("Connections #970\n🟦🟦🟦🟦\n🟪🟪🟪🟪\n🟩🟩🟩🟩\n🟨🟨🟨🟨", 970, 0, true),
        ("Connections Puzzle #971\n🟨🟨🟨🟨\n🟩🟩🟩🟩\n🟦🟦🟦🟦\n🟪🟪🟪🟪", 971, 0, true),
        ("Connections\nPuzzle #1,001\n🟨🟨🟨🟨\n🟩🟩🟩🟩\n🟦🟦🟦🟦\n🟪🟪🟪🟪", 1001, 0, true),
        ("Connections\nPuzzle #1001\n🟨🟩🟨🟨\n🟨🟦🟨🟨\n🟩🟨🟨🟨\n🟨🟨🟨🟨\n🟩🟩🟩🟩\n🟦🟦🟦🟦\n🟪🟪🟪🟪", 1001, 3, true),
        ("Connections\nPuzzle #990\n🟨🟩🟨🟨\n🟨🟦🟨🟨\n🟩🟨🟨🟨\n🟦🟨🟨🟨", 990, 4, false),
        ("Connections\nPuzzle #991\n🟨🟨🟨🟨\n🟩🟦🟩🟩\n🟩🟪🟩🟩\n🟦🟩🟩🟩\n🟩🟩🟦🟩", 991, 4, false),
        ("Connections\nPuzzle #992\n🟨🟨🟨🟨\n🟩🟩🟩🟩\n🟦🟪🟦🟦\n🟦🟦🟪🟪\n🟪🟦🟦🟦\n🟦🟦🟦🟪", 992, 4, false),
        ("Connections\nPuzzle #993\n🟨🟨🟨🟨\n🟩🟩🟩🟩\n🟦🟦🟦🟦\n🟪🟨🟪🟪\n🟪🟪🟩🟪\n🟦🟪🟪🟪\n🟪🟪🟪🟨", 993, 4, false),
        ("Got it without a mistake!\nConnections\nPuzzle #994\n🟨🟨🟨🟨\n🟩🟩🟩🟩\n🟦🟦🟦🟦\n🟪🟪🟪🟪", 994, 0, true),
        ("Connections\nPuzzle #995\n🟨🟩🟨🟨\n🟨🟨🟨🟨\n🟩🟩🟩🟩\n🟦🟦🟦🟦\n🟪🟪🟪🟪\nthe purple one was mean", 995, 1, true),
        (
            "Connections\nPuzzle #996\n🟨\u{FE0F}🟨\u{FE0F}🟨\u{FE0F}🟨\u{FE0F}\n🟩\u{FE0F}🟩\u{FE0F}🟩\u{FE0F}🟩\u{FE0F}\n🟦\u{FE0F}🟦\u{FE0F}🟦\u{FE0F}🟦\u{FE0F}\n🟪\u{FE0F}🟪\u{FE0F}🟪\u{FE0F}🟪\u{FE0F}",
            996, 0, true
        ),
        ("Connections\nPuzzle #997\n🟨 🟨 🟨 🟨\n🟩 🟩 🟩 🟩\n🟦 🟦 🟦 🟦\n🟪 🟪 🟪 🟪", 997, 0, true),
        ("Connections\r\nPuzzle #998\r\n🟦🟦🟦🟦\r\n🟨🟨🟨🟨\r\n🟩🟪🟩🟩\r\n🟩🟩🟩🟩\r\n🟪🟪🟪🟪", 998, 1, true),
        ("Connections\nPuzzle #999\n🟪🟪🟪🟪\n🟦🟦🟦🟦\n🟩🟩🟩🟩\n🟨🟨🟨🟨\nhttps://www.nytimes.com/games/connections", 999, 0, true),
        ("Connections\n\nPuzzle #1,002\n🟨🟨🟨🟨\n🟩🟩🟩🟩\n🟦🟦🟦🟦\n🟪🟪🟪🟪", 1002, 0, true),
        ("connections\npuzzle #1003\n🟨🟨🟨🟨\n🟩🟩🟩🟩\n🟦🟦🟦🟦\n🟪🟪🟪🟪", 1003, 0, true),
        ("Connections\nPuzzle # 1004\n🟩🟦🟩🟩\n🟨🟨🟨🟨\n🟦🟦🟦🟦\n🟪🟪🟪🟪\n🟩🟩🟩🟩", 1004, 1, true),
        (
            "Connections\nPuzzle #1005\n🟪\u{FE0F} 🟪\u{FE0F} 🟪\u{FE0F} 🟪\u{FE0F}\n🟦\u{FE0F} 🟦\u{FE0F} 🟦\u{FE0F} 🟦\u{FE0F}\n🟨\u{FE0F} 🟩\u{FE0F} 🟨\u{FE0F} 🟨\u{FE0F}\n🟩\u{FE0F} 🟨\u{FE0F} 🟨\u{FE0F} 🟨\u{FE0F}\n🟩\u{FE0F} 🟩\u{FE0F} 🟩\u{FE0F} 🟩\u{FE0F}\n🟨\u{FE0F} 🟨\u{FE0F} 🟨\u{FE0F} 🟨\u{FE0F}",
            1005, 2, true
        ),
    ]

    static let strands: [(text: String, puzzle: Int, hints: Int)] = [
        ("Strands #705\n“Let's face it”\n🟡🔵🔵🔵\n🔵🔵🔵🔵", 705, 0),
        ("Strands #350\n“Knot your average puzzle”\n🔵🔵🔵🟡\n🔵🔵🔵", 350, 0),
        ("Strands #580\n\"Bring it home\"\n💡🔵🔵💡\n🔵🟡🔵🔵\n🔵", 580, 2),
        ("Strands #123\n🟡🔵🔵\n🔵🔵🔵", 123, 0),
        ("Strands #123\n💡\n🟡🔵🔵\n🔵💡🔵", 123, 2),
        ("Strands #800\n“On the menu”\n🔵🔵🟡🔵\n🔵🔵", 800, 0),
        ("Strands #801\n“Time flies”\n💡🔵🔵🔵\n🟡🔵🔵", 801, 1),
        ("Strands #802\n“Feeling blue”\n💡💡💡🔵\n🔵🟡🔵🔵\n🔵", 802, 3),
        ("Strands #803\n“Good sports”\n🔵🔵🔵🔵\n🟡🔵🔵🔵", 803, 0),
        ("Strands #804\n“High notes”\n🔵💡🔵🔵\n🟡🔵💡🔵\n🔵", 804, 2),
        ("strands today:\nStrands #805\n“Room to grow”\n🟡🔵🔵🔵\n🔵🔵", 805, 0),
        ("Strands #806\n“In the cards”\n🔵🔵🔵🟡\n🔵🔵🔵\neasy one", 806, 0),
        ("Strands #807\n“Building blocks”\n🔵 🔵 🔵 🟡\n🔵 🔵 🔵", 807, 0),
        ("Strands #808\r\n“What a catch”\r\n🔵🔵💡🔵\r\n🔵🟡🔵", 808, 1),
        ("Strands #809\n“Night owls”\n💡🔵🔵🔵\n💡🔵🟡🔵\n🔵", 809, 2),
        ("Strands #810\n“Open wide”\n🔵🔵🔵🔵\n🔵🔵🟡", 810, 0),
        ("Strands #811\n'Pass the salt'\n🔵🟡🔵🔵\n🔵🔵🔵", 811, 0),
        ("Strands #812\n“Sweet tooth”\n🔵🔵🔵🔵\n🔵🔵🔵🟡", 812, 0),
        ("Strands #813\n“Star power”\n💡🔵💡🔵\n💡🔵💡🔵\n🟡🔵", 813, 4),
        ("Strands #814\n“Ship shape”\n🔵🔵🟡🔵\n🔵🔵🔵", 814, 0),
        ("Strands #815\nUnder the sea\n🔵🔵🔵🟡\n🔵🔵", 815, 0),
        ("Strands #816\n“Money talks”\n🔵🔵🔵\n🔵🟡🔵", 816, 0),
        ("Strands #817\n“Green thumb”\n🟡💡🔵🔵\n🔵🔵🔵🔵", 817, 1),
        ("Strands #818\n“Play ball”\n🔵🔵🔵🔵🔵🔵🔵🟡", 818, 0),
        ("Strands #819\n“Making waves”\n🔵🔵🔵🟡\n🔵🔵🔵\nhttps://www.nytimes.com/games/strands", 819, 0),
        ("Strands #1,000\n“A thousand words”\n🔵🔵🔵🟡\n🔵🔵🔵", 1000, 0),
        ("Strands #1000\n“Round number”\n🔵💡🔵🟡\n🔵🔵🔵", 1000, 1),
        ("Strands #820\n“On repeat”\n🔵\u{FE0F}🔵\u{FE0F}🔵\u{FE0F}🟡\u{FE0F}\n🔵\u{FE0F}🔵\u{FE0F}", 820, 0),
        ("Strands #821\n“Keep it down”\n💡🔵🔵🔵\n🔵🟡🔵", 821, 1),
        ("Strands #822\n“Full house”\n🔵🔵🟡🔵\n🔵🔵🔵🔵", 822, 0),
        ("Strands 822\n“No number sign”\n🔵🔵🟡🔵\n🔵🔵🔵🔵", 822, 0),
    ]

    static let mini: [(text: String, date: CivilDate, seconds: Int)] = [
        (
            "I solved the 4/28/2025 New York Times Mini Crossword in 0:22!", CivilDate(year: 2025, month: 4, day: 28)!,
            22
        ),
        (
            "I solved the 4/28/2025 New York Times\nMini Crossword in 0:22!", CivilDate(year: 2025, month: 4, day: 28)!,
            22
        ),
        (
            "I solved the 1/17/2026 New York Times Mini Crossword in 0:45!", CivilDate(year: 2026, month: 1, day: 17)!,
            45
        ),
        (
            "I solved the January 26, 2026 New York Times Mini Crossword in 1:23!",
            CivilDate(year: 2026, month: 1, day: 26)!, 83
        ),
        (
            "I solved the 11/27/2026 New York Times Mini Crossword in 0:41!",
            CivilDate(year: 2026, month: 11, day: 27)!, 41
        ),
        (
            "I solved the 11/27/2026 New York Times Mini Crossword in 0:41!\nhttps://www.nytimes.com/badges/games/mini.html?d=2026-11-27&t=41&c=6c1f&smid=url-share",
            CivilDate(year: 2026, month: 11, day: 27)!, 41
        ),
        (
            "https://www.nytimes.com/badges/games/mini.html?d=2026-11-26&t=95&c=1a2b3c&smid=url-share",
            CivilDate(year: 2026, month: 11, day: 26)!, 95
        ),
        ("nytimes.com/badges/games/mini.html?d=2026-11-25&t=30", CivilDate(year: 2026, month: 11, day: 25)!, 30),
        (
            "I solved the 11/26/2026 New York Times Mini Crossword in 2:05!",
            CivilDate(year: 2026, month: 11, day: 26)!, 125
        ),
        (
            "I solved the 11/25/2026 New York Times Mini Crossword in 10:03!",
            CivilDate(year: 2026, month: 11, day: 25)!, 603
        ),
        (
            "I solved the 11/24/2026 New York Times Mini Crossword in 1:00:02!",
            CivilDate(year: 2026, month: 11, day: 24)!, 3602
        ),
        (
            "Mini done ☕\nI solved the 11/23/2026 New York Times Mini Crossword in 0:58!",
            CivilDate(year: 2026, month: 11, day: 23)!, 58
        ),
        (
            "I solved the 11/22/2026 New York Times Mini Crossword in 0:19! beat that",
            CivilDate(year: 2026, month: 11, day: 22)!, 19
        ),
        (
            "I solved the November 21, 2026 New York Times Mini Crossword in 0:33!",
            CivilDate(year: 2026, month: 11, day: 21)!, 33
        ),
        (
            "I solved the Saturday, November 21, 2026 New York Times Mini Crossword in 0:33!",
            CivilDate(year: 2026, month: 11, day: 21)!, 33
        ),
        (
            "i solved the 11/20/2026 new york times mini crossword in 0:27!",
            CivilDate(year: 2026, month: 11, day: 20)!, 27
        ),
        (
            "I solved the 11/19/2026 New York Times Mini Crossword in 0:27", CivilDate(year: 2026, month: 11, day: 19)!,
            27
        ),
        (
            "I solved the 11/18/2026\nNew York Times Mini Crossword\nin 0:51!",
            CivilDate(year: 2026, month: 11, day: 18)!, 51
        ),
        (
            "I solved the 11/17/2026 New York Times Mini Crossword in 0:09!",
            CivilDate(year: 2026, month: 11, day: 17)!, 9
        ),
        (
            "I solved the 2/29/2028 New York Times Mini Crossword in 0:50!", CivilDate(year: 2028, month: 2, day: 29)!,
            50
        ),
        (
            "I solved the 12/31/2026 New York Times Mini Crossword in 3:14!",
            CivilDate(year: 2026, month: 12, day: 31)!, 194
        ),
        ("I solved the 1/1/2027 New York Times Mini Crossword in 0:44!", CivilDate(year: 2027, month: 1, day: 1)!, 44),
        (
            "I solved the 11/16/2026 New York Times Mini Crossword in 0:37!\r\n",
            CivilDate(year: 2026, month: 11, day: 16)!, 37
        ),
        (
            "I solved the 11/15/2026 New York Times Mini Crossword in 0:37!\nhttps://www.nytimes.com/crosswords/game/mini",
            CivilDate(year: 2026, month: 11, day: 15)!, 37
        ),
        (
            "I solved the 11/14/2026 New York Times Mini Crossword in 1:59!",
            CivilDate(year: 2026, month: 11, day: 14)!, 119
        ),
        (
            "I solved the 11/13/2026 New York Times Mini Crossword in 0:21!",
            CivilDate(year: 2026, month: 11, day: 13)!, 21
        ),
        (
            "I solved the 11/12/2026  New York Times Mini Crossword in 0:21!",
            CivilDate(year: 2026, month: 11, day: 12)!, 21
        ),
        (
            "I solved the December 1, 2026 New York Times Mini Crossword in 0:48!",
            CivilDate(year: 2026, month: 12, day: 1)!, 48
        ),
        (
            "Today: I solved the 11/11/2026 New York Times Mini Crossword in 0:29!",
            CivilDate(year: 2026, month: 11, day: 11)!, 29
        ),
        (
            "https://www.nytimes.com/badges/games/mini.html?d=2026-11-10&t=7",
            CivilDate(year: 2026, month: 11, day: 10)!, 7
        ),
        (
            "I solved the 11/9/2026 New York Times Mini Crossword in 0:12!", CivilDate(year: 2026, month: 11, day: 9)!,
            12
        ),
    ]

    static let nearMisses: [String] = [
        "Connections\nPuzzle #12",
        "Connections\nPuzzle #12\n🟨🟨🟨🟨\n🟩🟩🟩🟩\n🟦🟦🟦🟦",
        "Connections\nPuzzle #12\n🟨🟨🟨🟨🟨\n🟩🟩🟩🟩🟩\n🟦🟦🟦🟦🟦\n🟪🟪🟪🟪🟪",
        "Connections\nPuzzle #12\n🟨🟨🟨🟨\n🟨🟨🟨🟨\n🟦🟦🟦🟦\n🟪🟪🟪🟪",
        "Connections\nPuzzle #12\n🟨🟩🟨🟨\n🟨🟩🟨🟨\n🟨🟩🟨🟨\n🟨🟩🟨🟨\n🟨🟩🟨🟨",
        "Connections\nPuzzle #12\n🟨🟨🟨🟨\n🟩🟩🟩🟩\n🟦🟦🟦🟦\n🟪🟦🟪🟪",
        "Connections\nPuzzle #12\n🟨🟨🟨🟨\n🟥🟥🟥🟥\n🟦🟦🟦🟦\n🟪🟪🟪🟪",
        "Connections\nPuzzle #12a\n🟨🟨🟨🟨\n🟩🟩🟩🟩\n🟦🟦🟦🟦\n🟪🟪🟪🟪",
        "Connections are everything in this job\n🟨🟨🟨🟨\n🟩🟩🟩🟩\n🟦🟦🟦🟦\n🟪🟪🟪🟪",
        "Puzzles #3\n🟨🟨🟨🟨\n🟩🟩🟩🟩\n🟦🟦🟦🟦\n🟪🟪🟪🟪",
        "Wordle 1,234 4/6\n\n⬛🟨⬛⬛⬛\n⬛🟩🟨⬛⬛\n🟩🟩⬛🟩🟩\n🟩🟩🟩🟩🟩",
        "Connections\nPuzzle #12\n🟨🟨🟨🟨\n🟩🟩🟩🟩\n🟦🟦🟦🟦\n🟪🟪🟪🟪\n🟨🟩🟦🟪",
        "Strands #705",
        "Strands #705\n“Let's face it”",
        "Strands #705\n“Let's face it”\n🔵🔵🔵🔵\n🔵🔵🔵🔵",
        "Strands #705\n“Let's face it”\n🟡🔵🔵🟡\n🔵🔵🔵🔵",
        "Strands #705\n“Let's face it”\n🟡🔵",
        "Strands #70a5\n“Let's face it”\n🟡🔵🔵🔵\n🔵🔵🔵🔵",
        "Strands of hair everywhere\n🟡🔵🔵🔵\n🔵🔵🔵🔵",
        "Strands #705\n“Let's face it”\n🟡🟢🔵🔵\n🔵🔵🔵🔵",
        "I solved the crossword in 0:22!",
        "I solved the 4/28/2025 New York Times Crossword in 12:22!",
        "I finished the Los Angeles Times Mini Crossword in 1:02",
        "I solved the 4/28/2025 New York Times Mini Crossword!",
        "I solved the 2/30/2025 New York Times Mini Crossword in 0:22!",
        "I solved the 4/28/25 New York Times Mini Crossword in 0:22!",
        "I solved the yesterday New York Times Mini Crossword in 0:22!",
        "I solved the 4/28/2025 New York Times Mini Crossword in 0:0!",
        "I solved the 4/28/2025 New York Times Mini Crossword in 0:75!",
        "https://www.nytimes.com/badges/games/mini.html?d=2025-04-28",
        "https://www.nytimes.com/badges/games/mini.html?d=28-04-2025&t=22",
        "Mini Sudoku #142 | 0:39 and flawless ✏\u{FE0F}",
        "Queens #522\n1:11 👑\nlnkd.in/queens.",
        "Pips #46 Easy 🟢\n1:03",
    ]
}
