import Foundation
import Logging
import TesseraCore
import TesseraTesting

@testable import TesseraEngine

/// An in-memory double of what a feature reads (``MessageReads`` and ``StoreReads``), holding the values a test
/// gives it. It answers the slice the features under test read: players, games, groups and memberships, board
/// results and a board's members on a day, finished games and a player's data. Any other read throws ``OutsideTheSlice``, so a test also shows
/// which slice its feature reads; a feature can write nothing through it, since the protocols have no writes.
struct SliceDouble: MessageReads, StoreReads {
    /// A read the double does not answer: the feature reached beyond the slice its test gave it.
    struct OutsideTheSlice: Error, CustomStringConvertible {
        let read: String
        var description: String { "the feature read \(read), outside its test's slice" }
    }

    var players: [Player] = []
    var games: [StoredGame] = []
    var groups: [Group] = []
    /// Who is on each group's board.
    var members: [ChatID: Set<UserID>] = [:]
    /// The group's puzzle when a member joined its board: the first of the schedule unless given.
    var joined: [UserID: PuzzleNumber] = [:]
    var results: [BoardResult] = []
    var finished: [UserID: [PlayedGame]] = [:]
    var data: [UserID: PlayerData] = [:]
    /// The family board's standings of each period a test gives; another period's is outside the slice.
    var standings: [PeriodKey: [Standing]] = [:]
    /// Each member's crowns and best streak over the period a test reads; nil: outside the slice.
    var records: [UserID: BoardRecord]?
    /// Practice and archive games, each player's latest last.
    var practiceGames: [PracticeGame] = []
    /// Archive games' results, by player and puzzle.
    var archive: [UserID: [PuzzleNumber: GameResult]] = [:]
    /// Practice games started, by the day's key.
    var practiceStarts: [String: Int] = [:]
    /// Stored analyses of daily games, by player and puzzle.
    var analysed: [UserID: [PuzzleNumber: StoredAnalysis]] = [:]

    var reads: any StoreReads { self }

    // MessageReads

    func player(_ id: UserID) async throws -> Player? { players.first { $0.id == id } }
    func game(of player: UserID, language: Language, puzzle: PuzzleNumber) async throws -> StoredGame? {
        games.first { $0.player == player && $0.language == language && $0.puzzle == puzzle }
    }
    func isReplayGuarded(_ key: String) async throws -> Bool { false }
    func group(_ chat: ChatID) async throws -> Group? { groups.first { $0.chat == chat } }
    func groups(of player: UserID) async throws -> [Group] {
        groups.filter { members[$0.chat]?.contains(player) == true }
    }
    func totals(of player: UserID, in chat: ChatID, board: BoardKind, periods: [PeriodKey]) async throws
        -> [PeriodKey: BoardTotals]
    { throw OutsideTheSlice(read: #function) }
    func pendingCount(in chat: ChatID) async throws -> Int { 0 }

    // BoardReads

    func result(of player: UserID, in chat: ChatID, board: BoardKind, puzzle: PuzzleNumber) async throws
        -> BoardResult?
    {
        results.first { $0.player == player && $0.chat == chat && $0.board == board && $0.puzzle == puzzle }
    }
    func results(in chat: ChatID, board: BoardKind, puzzle: PuzzleNumber) async throws -> [(
        name: String, result: BoardResult
    )] {
        results.filter { $0.chat == chat && $0.board == board && $0.puzzle == puzzle }
            .filter { !board.isMembersOnly || members[chat]?.contains($0.player) == true }
            .map { result in (players.first { $0.id == result.player }?.displayName ?? "", result) }
    }
    func followers(of chat: ChatID) async throws -> [Player] { throw OutsideTheSlice(read: #function) }
    func outcomes(of player: UserID, in chat: ChatID, board: BoardKind, through puzzle: PuzzleNumber) async throws
        -> [(puzzle: PuzzleNumber, won: Bool)]
    { throw OutsideTheSlice(read: #function) }
    func officialResults(of player: UserID) async throws -> [PlayedGame] { throw OutsideTheSlice(read: #function) }
    func standing(of player: UserID, in chat: ChatID, board: BoardKind) async throws -> Standing? {
        throw OutsideTheSlice(read: #function)
    }
    func standings(in chat: ChatID, board: BoardKind, period: PeriodKey) async throws -> [Standing] {
        guard let standings = standings[period] else { throw OutsideTheSlice(read: "\(#function) of \(period)") }
        return standings
    }
    func players(_ ids: [UserID]) async throws -> [Player] { players.filter { ids.contains($0.id) } }
    func memberDays(in chat: ChatID, withoutResultFor puzzle: PuzzleNumber, orOfficial official: PuzzleNumber)
        async throws -> [MemberDay]
    {
        let done = Set(
            results.filter {
                $0.chat == chat
                    && ($0.board == .tessera && $0.puzzle == puzzle || $0.board == .official && $0.puzzle == official)
            }.map(\.player))
        return Array(Set(boardMembers(of: chat).filter { !done.contains($0.id) }.map(Self.day(of:))))
    }
    /// No other puzzle pasted: the features under test read none.
    func firstResults(in chat: ChatID, of days: [BoardDay], limit: Int) async throws -> [BoardKind: FirstResults] {
        [:]
    }
    func dayMembers(in chat: ChatID, board: BoardKind, puzzle: PuzzleNumber) async throws -> [DayMember] {
        boardMembers(of: chat).map { player in
            let result = results.first {
                $0.player == player.id && $0.chat == chat && $0.board == board && $0.puzzle == puzzle
            }
            return DayMember(
                player: player.id, name: player.displayName, joinedPuzzle: joined[player.id] ?? PuzzleNumber(1),
                day: Self.day(of: player), result: result, streak: result?.streakAfter ?? 0,
                lastPuzzle: result?.puzzle)
        }
    }
    func records(in chat: ChatID, board: BoardKind, from first: PuzzleNumber, through last: PuzzleNumber)
        async throws -> [UserID: BoardRecord]
    {
        guard let records else { throw OutsideTheSlice(read: #function) }
        return records
    }
    /// Days each player had the day's fewest winning guesses, counted from the results.
    func crowns(
        of players: [UserID], in chat: ChatID, board: BoardKind, from first: PuzzleNumber, through last: PuzzleNumber
    ) async throws -> [UserID: Int] {
        let days = Dictionary(
            grouping: results.filter { $0.chat == chat && $0.board == board && (first...last).contains($0.puzzle) },
            by: \.puzzle)
        var crowns: [UserID: Int] = [:]
        for day in days.values {
            guard let best = day.compactMap(\.guesses).min() else { continue }
            for result in day where result.guesses == best && players.contains(result.player) {
                crowns[result.player, default: 0] += 1
            }
        }
        return crowns
    }
    func members(in chat: ChatID, playing language: Language, puzzle: PuzzleNumber) async throws -> Set<UserID> {
        Set(boardGames(in: chat, language: language, puzzle: puzzle).map(\.player))
    }
    func countedGames(of players: [UserID], in chat: ChatID, puzzle: PuzzleNumber) async throws
        -> [UserID: StoredGame]
    {
        var counted: [UserID: StoredGame] = [:]
        for result in results
        where result.chat == chat && result.board == .tessera && result.puzzle == puzzle
            && players.contains(result.player)
        {
            counted[result.player] = games.first {
                $0.player == result.player && $0.language == result.language && $0.puzzle == puzzle
            }
        }
        return counted
    }
    func unfinished(in chat: ChatID, language: Language, puzzle: PuzzleNumber) async throws -> [(
        name: String, guesses: Int
    )] {
        boardGames(in: chat, language: language, puzzle: puzzle).filter { $0.result == nil }.map { game in
            (players.first { $0.id == game.player }?.displayName ?? "", game.guesses.count)
        }
    }

    // HistoryReads

    func finishedGames(of player: UserID, language: Language) async throws -> [PlayedGame] {
        finished[player] ?? []
    }
    func latestPracticeGame(of player: UserID) async throws -> PracticeGame? {
        practiceGames.last { $0.player == player }
    }
    func practiceGame(of player: UserID, number: Int) async throws -> PracticeGame? {
        practiceGames.first { $0.player == player && $0.number == number }
    }
    func practiceResults(of player: UserID, language: Language) async throws -> PracticeResults {
        throw OutsideTheSlice(read: #function)
    }
    func archiveResults(of player: UserID, language: Language) async throws -> [PuzzleNumber: GameResult] {
        archive[player] ?? [:]
    }
    func practiceStarts(_ key: String) async throws -> Int { practiceStarts[key] ?? 0 }

    // AnalysisReads

    func analysis(of player: UserID, language: Language, puzzle: PuzzleNumber) async throws -> StoredAnalysis? {
        analysed[player]?[puzzle]
    }
    func recentAnalyses(of player: UserID, language: Language, limit: Int) async throws -> [String] {
        throw OutsideTheSlice(read: #function)
    }
    /// No game analysed: the features under test show no highlights.
    func analyses(of players: [UserID], language: Language, puzzle: PuzzleNumber) async throws -> [UserID: String] {
        [:]
    }
    func practiceAnalysis(of player: UserID, number: Int) async throws -> StoredAnalysis? {
        throw OutsideTheSlice(read: #function)
    }
    func recentPracticeAnalyses(of player: UserID, language: Language, limit: Int) async throws -> [String] {
        throw OutsideTheSlice(read: #function)
    }

    // PlayerDataReads

    func data(of player: UserID) async throws -> PlayerData? { data[player] }
    func analyses(of player: UserID) async throws -> [DailyGameKey: String] { throw OutsideTheSlice(read: #function) }
    func practiceAnalyses(of player: UserID) async throws -> [Int: String] { throw OutsideTheSlice(read: #function) }
    func groups(crowning player: UserID) async throws -> [Group] {
        groups.filter { $0.team.champions.contains(player) }
    }

    private func boardMembers(of chat: ChatID) -> [Player] {
        players.filter { members[chat]?.contains($0.id) == true }
    }

    private func boardGames(in chat: ChatID, language: Language, puzzle: PuzzleNumber) -> [StoredGame] {
        games.filter {
            members[chat]?.contains($0.player) == true && $0.language == language && $0.puzzle == puzzle
        }
    }

    private static func day(of player: Player) -> MemberDay {
        MemberDay(timeZone: player.timeZone, rolloverHour: player.rolloverHour)
    }
}

/// What a feature test builds a ``Turn`` from: the engine's rules and texts without the engine or a store.
enum FeatureSetting {
    static let core = EngineCore(
        configuration: EngineConfiguration(), secret: ScheduleSecret("feature test secret")!,
        logger: Logger(label: "feature-test"))
    /// 2026-11-22 12:00 UTC: puzzle 326 of Tessera's schedule.
    static let now = Date(timeIntervalSince1970: 1_795_348_800)
    static let family = ChatID(-100)

    static func player(_ id: Int64, _ name: String) -> Player {
        Player(id: UserID(id), displayName: name, language: .english, timeZone: "UTC", rolloverHour: 0)
    }

    static func group() -> Group {
        Group(
            chat: family, timeZone: "UTC", rolloverHour: 0, language: .english, lastClosedPuzzle: PuzzleNumber(325))
    }

    /// A message from `player` in the family group (or their direct chat), as the router hands it to a feature.
    static func turn(
        _ text: String, from player: Player, in group: Group?, reads: SliceDouble, platform: PlatformTraits = .init(),
        at now: Date = now
    ) -> Turn {
        let message = ChatMessage(
            chat: group?.chat ?? ChatID(player.id.number ?? 0), chatKind: group == nil ? .direct : .group,
            sender: player.id, senderName: player.displayName, text: text, messageID: MessageID(9))
        return Turn(
            message: message.readingCommands(), platform: platform, now: now, store: reads,
            storeReads: { reads }, player: player,
            group: group)
    }
}
