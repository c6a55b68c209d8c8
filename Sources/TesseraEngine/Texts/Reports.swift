import Foundation
public import TesseraCore

// What the texts word: the reports the engine's features build, as values.

/// A game as an analysis's title names it: `Tessera 1,234`, `Practice`, `Archive 312`.
public enum AnalysedGame: Sendable, Hashable {
    case daily(PuzzleNumber)
    case practice(PracticeGame.Kind)
}

/// Skill and luck scores averaged over a player's latest analysed games.
struct AverageScores: Hashable {
    let skill: Int
    let luck: Int
    let games: Int
}

/// The most skilful game of a closed day, by name. (Not the luckiest: a luck score out of 99 says little of
/// one game, and reads as a joke.)
struct DayHighlights {
    let skilful: (name: String, score: Int)
}

/// The first few of a long list in some order, and how many more there are; found without sorting the whole
/// list.
struct Shortlist<Element> {
    let shown: [Element]
    let more: Int

    /// `areInOrder` false for every pair keeps the list's own order.
    init(_ elements: [Element], count: Int, by areInOrder: (Element, Element) -> Bool) {
        var shown: [Element] = []
        for element in elements where shown.count < count || areInOrder(element, shown[shown.count - 1]) {
            shown.insert(element, at: shown.firstIndex { areInOrder(element, $0) } ?? shown.count)
            if shown.count > count { shown.removeLast() }
        }
        self.shown = shown
        more = elements.count - shown.count
    }

    /// A list already cut short, and how many more there are.
    init(_ shown: [Element], more: Int) {
        self.shown = shown
        self.more = more
    }

    var isEmpty: Bool { shown.isEmpty }
}

/// What a group's day post says, for the texts to word (``DaySummaries``): the day so far, or once everyone is
/// done its final form, with the words and the crown.
struct DaySummary {
    /// The words of the day, behind a spoiler; while a member who has not played can still play the puzzle they
    /// follow in the final post (when they have played, or at the latest `until`: the texts name them from
    /// ``stillPlaying``), and where the platform cannot hide them they are never posted
    /// (``PlatformTraits/spoilers``).
    enum Word {
        /// Each played language's word, the group's first.
        case shown([(language: Language, word: String)])
        case later(until: LocalTime)
        case notPosted
    }

    /// The members with one score (`3/6`, `4/6*`), in finishing order, each with the language they played;
    /// crowned in a final post when it is the fewest guesses (hard mode or not: `3/6` and `3/6*` share it).
    struct ScoreLine {
        let score: String
        let names: Shortlist<Name>
        let crowned: Bool
    }

    /// A member on a score line: the language they played, and their board's number on the day card beside the
    /// post, if it has one.
    typealias Name = (name: String, language: Language, number: Int?)

    let puzzle: PuzzleNumber
    /// The group's language: a result in another says which.
    let language: Language
    /// Whether everyone is done: the post crowns the best; otherwise it is the day so far.
    let final: Bool
    let word: Word
    /// The most skilful game, beside the words only.
    let highlights: DayHighlights?
    /// The day's results by score, best first.
    let results: [ScoreLine]
    /// Names and streak lengths, longest first.
    let streaksKept: Shortlist<(String, Int)>
    let streaksBroken: Shortlist<(String, Int)>
    /// Members without a result whose own day of the puzzle is still open: the word waits for them.
    let stillPlaying: Shortlist<String>
    /// Members expected who did not play (``DayAttendance``).
    let missed: Shortlist<String>
    /// The original game's puzzle of the same date, and the results pasted here for it (names and scores), best
    /// first.
    let officialPuzzle: PuzzleNumber
    let official: Shortlist<(String, String)>
    /// The group streak, once the day is judged: in the final post only.
    let groupStreak: GroupStreakNews?
    /// The other puzzles of the same date pasted here, each game's names and scores, best first.
    let otherPuzzles: [(PuzzleShare.Game, Shortlist<(String, String)>)]
}

/// A time of day in a group's zone, as its members read it: `06:00`, `06:00` tomorrow, or on a weekday.
struct LocalTime: Hashable {
    let hour: Int
    let minute: Int
    /// Days after the date it is seen from: 0 today, 1 tomorrow.
    let daysAhead: Int
    /// 0 for Sunday to 6 for Saturday.
    let weekday: Int

    init(hour: Int, minute: Int, daysAhead: Int, weekday: Int = 0) {
        self.hour = hour
        self.minute = minute
        self.daysAhead = daysAhead
        self.weekday = weekday
    }

    init(_ instant: Date, seenFrom now: Date, in zone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.hour, .minute, .weekday], from: instant)
        let days = calendar.dateComponents(
            [.day], from: calendar.startOfDay(for: now), to: calendar.startOfDay(for: instant)
        ).day
        self.init(
            hour: parts.hour ?? 0, minute: parts.minute ?? 0, daysAhead: days ?? 0,
            weekday: ((parts.weekday ?? 1) + 6) % 7)
    }

    /// `06:00`.
    var clock: String { String(format: "%02d:%02d", hour, minute) }
    /// The midnight that ends the day it is seen from: "at midnight" says it better than "tomorrow at 00:00".
    var isComingMidnight: Bool { daysAhead == 1 && hour == 0 && minute == 0 }
}

/// A value of an analysis as far as it is known, for each language to word.
enum Known: Hashable {
    case exactly(Double)
    case between(Double, Double)
    case atLeast(Double)
    case atMost(Double)
    case unknown

    init(_ interval: AnalysisReport.Interval) {
        switch (interval.atLeast, interval.atMost) {
        // Bounds closer than the texts' two decimals say one figure ("+0.20", not "+0.20 to +0.20").
        case (let lower?, let upper?):
            self = upper - lower < 0.005 ? .exactly((lower + upper) / 2) : .between(lower, upper)
        case (let lower?, nil): self = .atLeast(lower)
        case (nil, let upper?): self = .atMost(upper)
        case (nil, nil): self = .unknown
        }
    }
}

extension AnalysisReport.Turn {
    /// What the guess cost against optimal play, in guesses; nil when no sure win was left to lose, or the guess
    /// gave it up (``givesUpSureWin``). A cost under half a hundredth reads as none.
    /// Whether the guess was the word.
    var wins: Bool { !pattern.isEmpty && pattern.allSatisfy { $0 == "g" } }

    var cost: Known? {
        guard let bounds else { return inaccuracy.map(Known.exactly) }
        guard let range = bounds.inaccuracy else { return nil }
        let none = 0.005
        if let upper = range.atMost, upper < none { return .exactly(0) }
        let lower = range.atLeast.flatMap { $0 < none ? nil : $0 }
        return Known(AnalysisReport.Interval(atLeast: lower, atMost: range.atMost))
    }

    /// The luck of the guess's colours; nil when undefined.
    var knownLuck: Known? {
        guard let bounds else { return luck.map(Known.exactly) }
        return bounds.luck.map(Known.init)
    }
}

/// What the post at the end of a group's season says, for the texts to word.
struct SeasonSummary {
    struct Place {
        /// From 0; ties share one.
        let place: Int
        let name: String
        let points: Int
        let crowns: Int
    }

    struct Improvement {
        let name: String
        /// Guesses a game on average, a loss counting as 7: the season before, and this one.
        let from: Double
        let to: Double
    }

    struct Skill {
        let name: String
        /// The average skill of their analysed games, 0–99.
        let skill: Int
        let games: Int
    }

    let length: SeasonLength
    let firstDay: CivilDate
    /// The first three places, best first (ties share one), as many as a list of names shows.
    let podium: Shortlist<Place>
    /// Who shares first place with points: the champions.
    let champions: [UserID]
    let mostImproved: Improvement?
    let bestStreak: (names: Shortlist<String>, streak: Int)?
    let mostSkilful: Skill?
}

/// What the post at the end of a group's week says, for the texts to word.
struct WeekSummary {
    let monday: CivilDate
    /// The first three places (ties share one), best first: place from 0, name, points; as many as a list of
    /// names shows.
    let podium: Shortlist<(place: Int, name: String, points: Int)>
    /// The longest streak of wins going at the week's end, of two or more: who has it, and its length.
    let bestStreak: (names: Shortlist<String>, streak: Int)?
    let daysEveryonePlayed: Int
    /// The week's days since the board began: 7, or fewer for a board that began during the week.
    let days: Int
}

/// What a day's post says of the group streak: a run going on, from its first day when that day was played
/// together ("Day 1 together"), or a run of two days or more that the day ended (said once, on that day).
enum GroupStreakNews: Hashable {
    case going(days: Int)
    case ended(days: Int)

    var isGoing: Bool {
        if case .going = self { return true }
        return false
    }

    /// The news of `puzzle`, from the streak as judged on it.
    init?(_ streak: GroupStreak, day puzzle: PuzzleNumber) {
        guard streak.through == puzzle else { return nil }
        switch streak.ended {
        case nil: self = .going(days: streak.days)
        case let days? where days >= 2: self = .ended(days: days)
        case _?: return nil
        }
    }
}
