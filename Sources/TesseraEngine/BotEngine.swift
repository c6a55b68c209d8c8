public import Foundation
public import Logging
import Synchronization
public import TesseraCore

/// Turns an incoming chat message into game actions and replies. It knows no platform: transports turn
/// their updates into ``ChatMessage`` values and send the ``OutgoingMessage`` values it queues.
///
/// It does no I/O of its own: each message is handled inside the caller's storage transaction
/// (``handle(_:at:in:)``), whose calls are `async` so that a store on a network database can serve them, and a
/// message's effects and its replies are stored together, or not at all.
public struct BotEngine: Sendable {
    public struct Configuration: Sendable {
        /// The name in share texts.
        public var gameName = "Tessera"
        /// The zone and rollover hour of new players and of groups.
        public var defaultTimeZone = "UTC"
        public var defaultRolloverHour = 0
        public var defaultLanguage = Language.english
        public var schedule = DailySchedule.tessera
        public var shareTheme = ShareTheme.dark
        /// What the platform can do (its transport's ``ChatTransport/traits``).
        public var platform = PlatformTraits()
        /// How many practice and archive games a player may start in a day.
        public var practiceGamesPerDay = 50
        /// What the analysis of one game may spend: steps and the solver's memo (README, "Analyses have a
        /// budget").
        public var analysisBudget = Solver.Budget.standard
        /// Words an operator accepts as guesses beyond a language's built-in list (`guesses.extra.file.en`, …):
        /// a group's in-jokes, or a list the operator has the right to use. Never answers, never the bot's words.
        public var extraGuesses: [Language: [Word]] = [:]
        /// A uniformly random integer below its argument: practice games' answers. Tests pass a seeded one.
        public var randomBelow: @Sendable (Int) -> Int = { Int.random(in: 0..<$0) }

        public init() {}
    }

    public let configuration: Configuration
    /// Each language's answers, built when the language is first played and kept for the engine's life: a
    /// schedule remembers what it works out once (the order of a new answer edition's first cycle), and a
    /// language nobody plays is never loaded.
    private let schedules = Schedules()
    /// Each language with extra guesses, its list with them (``guessList(_:)``).
    private let guessLists: [Language: WordList]

    private final class Schedules: Sendable {
        let built = Mutex<[Language: AnswerSchedule]>([:])
        /// Each language's practice words (``BotEngine/practiceWords(in:closedThrough:)``) as of the last puzzle
        /// closed everywhere: worked out once a day, not on every `/practice`.
        let practiceWords = Mutex<[Language: (closed: Int, words: [(PuzzleNumber, Word)])]>([:])
    }

    /// The words practice deals in a language while puzzles up to `closed` have closed everywhere: the last cycle
    /// of their answers still on the lists, newest first, each once, with the puzzle it was.
    func practiceWords(in language: Language, closedThrough closed: Int) -> [(PuzzleNumber, Word)] {
        if let kept = schedules.practiceWords.withLock({ $0[language] }), kept.closed == closed { return kept.words }
        let list = language.wordList
        let current = Set(list.answers)
        var seen = Set<Word>()
        var words: [(PuzzleNumber, Word)] = []
        for number in stride(from: closed, to: max(0, closed - list.answers.count), by: -1) {
            let puzzle = PuzzleNumber(number)
            let word = answer(for: puzzle, in: language)
            if current.contains(word), seen.insert(word).inserted { words.append((puzzle, word)) }
        }
        schedules.practiceWords.withLock { $0[language] = (closed, words) }
        return words
    }
    /// Keys the schedule and the replay guards.
    let secret: ScheduleSecret
    /// Signs the data of the buttons the bot sends, so a press of one it did not send is ignored.
    let buttonTags: ButtonTags
    /// Presses of buttons the bot did not send, logged a line a minute at most.
    let forgedPresses = ThrottledLog(interval: 60)
    let logger: Logger

    public init(configuration: Configuration, secret: ScheduleSecret, logger: Logger) {
        self.configuration = configuration
        self.guessLists = configuration.extraGuesses.reduce(into: [:]) { lists, extra in
            lists[extra.key] = extra.key.wordList.adding(guesses: extra.value)
        }
        self.secret = secret
        self.buttonTags = ButtonTags(secret: secret)
        self.logger = logger
    }

    /// The list a language's guesses are checked against: the built-in one and the operator's extra guesses.
    func guessList(_ language: Language) -> WordList {
        guessLists[language] ?? language.wordList
    }

    /// The answer of a puzzle in a language.
    func answer(for puzzle: PuzzleNumber, in language: Language) -> Word {
        let schedule = schedules.built.withLock { built in
            if let schedule = built[language] { return schedule }
            let schedule = AnswerSchedule(wordList: language.wordList, secret: secret)
            built[language] = schedule
            return schedule
        }
        return schedule.answer(for: puzzle)
    }

    /// Handles one message: updates the store and queues the replies in its outbox. Returns what it did that
    /// the runtime counts (its metrics): the engine itself knows no metrics.
    @discardableResult
    public func handle(_ message: ChatMessage, at now: Date, in store: any GameStoreTransaction) async throws
        -> MessageOutcome
    {
        var input = BotInput(message)
        // Typing the bot's name anywhere asks a query: it is answered, and stores nothing about the asker.
        if case .query(let id) = message.event {
            try await answerShareQuery(id: id, message: message, at: now, in: store)
            return MessageOutcome()
        }
        try await store.noteActivity(in: message.chat)
        // A typed confirmation of /forgetme (platforms without buttons) is its button's press: handled before
        // anything is stored for the sender, as a press is.
        if !configuration.platform.buttons, let command = message.command, command.known == .forgetme,
            !command.argument.isEmpty
        {
            try await typedConfirmation(command.argument, message: message, at: now, in: store)
            return MessageOutcome()
        }
        if let button = message.button {
            // Stats, Share and Analysis are their commands, written as typed; the other buttons confirm what they
            // were sent with.
            let parts = button.split(separator: " ", maxSplits: 1)
            let command = ChatCommand(name: parts.first.map(String.init) ?? "", argument: parts.dropFirst().joined())
            guard command.known?.isButton == true else {
                try await pressed(button, message: message, at: now, in: store)
                return MessageOutcome()
            }
            input = .command(command)
        }
        var group: Group?
        if message.chatKind == .group {
            group = try await store.group(message.chat)
            if group == nil {
                let created = newGroup(message.chat, at: now)
                try await store.save(created)
                group = created
            }
        }
        let storedPlayer = try await store.player(message.sender)
        // A player who first appears in a group starts on that group's day, and follows it until they choose
        // their own, so their day ends with the group's and not at the server's default hour.
        var player =
            storedPlayer
            ?? Player(
                id: message.sender,
                displayName: message.senderName,
                language: message.senderLanguage.flatMap(Language.init(tag:)) ?? configuration.defaultLanguage,
                timeZone: group?.timeZone ?? configuration.defaultTimeZone,
                rolloverHour: group?.rolloverHour ?? configuration.defaultRolloverHour,
                followsGroup: group?.chat
            )
        player.displayName = message.senderName
        // The first message in the direct chat: its reply says which day the player is on.
        let firstPrivate = message.chatKind == .direct && player.directChat == nil
        if message.chatKind == .direct { player.directChat = message.chat }
        player.settleTimeZone(at: now, schedule: configuration.schedule)
        if player != storedPlayer { try await store.save(player) }

        var context = Context(
            message: message, platform: configuration.platform, now: now, store: store, player: player, group: group,
            language: group?.language ?? player.puzzleLanguage)
        try await respond(to: input, context: &context)
        if firstPrivate, let reply = context.replies.firstIndex(where: { $0.chat == message.chat }) {
            let day = context.player.pendingTimeZone ?? context.player.timeZone
            context.replies[reply].html += "\n\n" + context.texts.yourDay(day, hour: context.player.rolloverHour)
        }
        if context.player != player { try await store.save(context.player) }
        if let changed = context.group, changed != group { try await store.save(changed) }
        try await enqueueWithinBacklog(context.replies, context: context)
        return context.outcome
    }

    /// Replies waiting for one chat at most: a chat that floods the bot gets one "slow down" and no more
    /// replies until its queue drains, instead of hundreds that would hold it up for minutes.
    static let backlogLimit = 30

    private func enqueueWithinBacklog(_ replies: [OutgoingMessage], context: Context) async throws {
        let chat = context.message.chat
        let own = replies.filter { $0.chat == chat }
        guard !own.isEmpty else { return try await context.store.enqueue(replies) }
        let waiting = try await context.store.pendingCount(in: chat)
        if waiting < Self.backlogLimit { return try await context.store.enqueue(replies) }
        try await context.store.enqueue(replies.filter { $0.chat != chat })
        if waiting == Self.backlogLimit {
            try await context.store.enqueue([
                OutgoingMessage(
                    chat: chat, chatKind: context.message.chatKind, html: context.texts.slowDown,
                    replyTo: context.message.messageID,
                    thread: context.message.thread)
            ])
        }
        logger.notice(
            "A chat's queue of replies is full; a reply was skipped",
            metadata: ["chat.id": "\(chat)", "outbox.waiting": "\(waiting)"])
    }

    /// What the platform must say before a message is handled: whether its sender administers the group
    /// (changing group settings), whether the bot may delete it (a guess shown in a group). The service asks,
    /// and fills in the answers.
    public func questions(for message: ChatMessage) -> Set<PlatformQuestion> {
        guard message.chatKind == .group else { return [] }
        if Self.revealsGuess(message) { return [.botMayDeleteMessages] }
        guard let command = message.command, !command.argument.isEmpty else { return [] }
        return command.known == .settings ? [.senderIsAdministrator] : []
    }

    /// A group message that shows a guess's letters, sent or edited in: a word typed after a command
    /// (`/guess crane`, `/play@bot crane`), or a board's row of squares and letters (a forwarded or copied
    /// private board). Its letters are a hint for every member, so the bot deletes it where it may and never
    /// quotes it.
    static func revealsGuess(_ message: ChatMessage) -> Bool {
        guard message.chatKind == .group else { return false }
        guard let command = message.command else { return SharedResult.showsLetters(message.text) }
        // `/play es` chooses a puzzle; any other word after it would be a guess.
        return command.known == .guess && !command.argument.isEmpty
            || command.known == .play && !command.argument.isEmpty && language(named: command.argument) == nil
    }

    /// What one message works on.
    struct Context {
        let message: ChatMessage
        let platform: PlatformTraits
        let now: Date
        let store: any GameStoreTransaction
        var player: Player
        /// The group the message came from; nil in a direct chat.
        var group: Group?
        /// The language of the puzzle and board being played: the group's in a group, in a direct chat the
        /// player's (or the one they chose with `/play`).
        var language: Language
        var replies: [OutgoingMessage] = []
        var outcome = MessageOutcome()

        var isGroup: Bool { group != nil }
        /// Replies are in the language of the chat they go to: the group's, or the player's own.
        var texts: any Texts { (group?.language ?? player.language).texts }

        mutating func reply(_ html: String) {
            replies.append(
                OutgoingMessage(
                    chat: message.chat, chatKind: message.chatKind, html: html, replyTo: message.messageID,
                    thread: message.thread))
        }

        /// Acknowledges the message with a reaction on it; `html` is what a platform without reactions, or a
        /// message without an id, gets instead.
        mutating func react(_ reaction: OutgoingMessage.Reaction, otherwise html: String) {
            guard platform.reactions, let target = message.messageID else { return reply(html) }
            replies.append(
                OutgoingMessage(
                    chat: message.chat, chatKind: message.chatKind, html: html, replyTo: target, thread: message.thread,
                    action: .react(reaction)))
        }
    }

    private func respond(to input: BotInput, context: inout Context) async throws {
        if context.message.isEdited {
            if Self.revealsGuess(context.message) {
                deleteRevealedGuess(context: &context)
            } else {
                edited(context: &context)
            }
            return
        }
        switch context.message.event {
        case .added(let seesEveryMessage)?:
            // One greeting, not a reply to anything: what the group can do, and how to set it up.
            context.replies.append(
                OutgoingMessage(
                    chat: context.message.chat, chatKind: context.message.chatKind,
                    html: context.texts.greeting(seesEveryMessage: seesEveryMessage) + "\n\n" + context.texts.groupHelp,
                    thread: context.message.thread))
            return
        case .query?:
            // Answered in handle(_:at:in:), before anything is stored.
            return
        case .unreadable?:
            // Nobody is left talking to a bot that cannot hear them: what to do instead, in plain text.
            context.replies.append(
                OutgoingMessage(
                    chat: context.message.chat, chatKind: context.message.chatKind, html: context.texts.cannotRead,
                    thread: context.message.thread))
            return
        case nil:
            break
        }
        switch input {
        case .text:
            if Self.revealsGuess(context.message) {
                deleteRevealedGuess(context: &context)
            } else if let share = SharedResult(parsing: context.message.text), isCounted(share) {
                try await pasted(share, context: &context)
            } else if !context.isGroup {
                context.reply(context.texts.guessHowTo)
            }
        case .word(let word):
            if !context.isGroup { try await guessInFocus(word, context: &context) }
        case .command(let command):
            guard let known = command.known else {
                // In groups, unknown commands are for other bots.
                if !context.isGroup { context.reply(context.texts.unknownCommand) }
                return
            }
            try await self.command(known, argument: command.argument, context: &context)
        }
    }

    private func command(_ command: BotCommand, argument: String, context: inout Context) async throws {
        switch command {
        case .start, .help:
            // In a group: what the group can do there, not how to guess in private.
            if context.isGroup { return context.reply(context.texts.groupHelp) }
            guard command == .start else { return context.reply(context.texts.help) }
            // A group's play button opens the direct chat on the group's puzzle (`/start play-en`): the next word
            // goes there, not to a practice game.
            let chosen = Self.playedLanguage(fromStart: argument)
            if let chosen {
                choosePuzzle(chosen, context: &context)
                try await focusOnDailyPuzzle(context: &context)
            }
            context.reply(welcome(playing: context.language, player: context.player, namingPuzzle: chosen != nil))
        case .play where !context.isGroup:
            if !argument.isEmpty {
                guard let chosen = Self.language(named: argument) else { return context.reply(context.texts.playUsage) }
                choosePuzzle(chosen, context: &context)
            }
            try await focusOnDailyPuzzle(context: &context)
            context.reply(context.texts.playing(context.language))
        case .guess, .play:
            if context.isGroup {
                try await playPrivately(context: &context)
            } else if argument.isEmpty {
                context.reply(context.texts.guessNeedsWord)
            } else {
                try await guessInFocus(argument, context: &context)
            }
        case .practice: try await practice(argument, context: &context)
        case .archive: try await archive(argument, context: &context)
        case .board:
            if !context.isGroup, let practice = try await practiceInFocus(&context) {
                return practiceBoard(practice, context: &context, reposts: true)
            }
            try await board(context: &context)
        case .hard: try await hardMode(argument, context: &context)
        case .stats: try await statistics(context: &context)
        case .analysis: try await analysis(argument, context: &context)
        case .share: try await share(context: &context)
        case .leaderboard: try await leaderboard(argument, context: &context)
        case .join: try await join(context: &context)
        case .leave: try await leave(context: &context)
        case .settings: try await settings(argument, context: &context)
        case .forgetme: forgetMe(context: &context)
        case .export: try await export(context: &context)
        case .timezone: timeZone(argument, context: &context)
        case .language: language(argument, context: &context)
        case .remind: remind(argument, context: &context)
        }
    }

    // MARK: - The day's game

    /// The player's game of their current puzzle in the board's language, rebuilt from its stored guesses.
    struct DailyGame {
        var game: Game
        var stored: StoredGame
        /// Not started, and the player had a game of this puzzle before they asked to be forgotten.
        var playedBeforeForgetting = false
    }

    func dailyGame(_ context: Context) async throws -> DailyGame {
        let player = context.player
        let list = guessList(context.language)
        let puzzle = player.puzzle(at: context.now, schedule: configuration.schedule)
        let existing = try await context.store.game(of: player.id, language: context.language, puzzle: puzzle)
        let stored =
            existing
            ?? StoredGame(
                player: player.id, language: context.language, puzzle: puzzle,
                hardMode: player.prefersHardMode || context.group?.hardModeRequired == true)
        var game = Game(answer: answer(for: puzzle, in: context.language), wordList: list, hardMode: stored.hardMode)
        restore(
            stored.guesses, into: &game, metadata: ["player.id": "\(player.id)", "puzzle.number": "\(puzzle)"])
        var replay = false
        if existing == nil {
            for key in replayKeys(player.id, language: context.language, puzzle: puzzle) where !replay {
                replay = try await context.store.isReplayGuarded(key)
            }
        }
        return DailyGame(game: game, stored: stored, playedBeforeForgetting: replay)
    }

    /// Replays a stored game's guesses; one that cannot be read (a list changed) is logged and left out.
    func restore(_ guesses: [String], into game: inout Game, metadata: Logger.Metadata) {
        for guess in guesses {
            switch game.wordList.word(from: guess) {
            case .success(let word): game.restore(word)
            case .failure(let rejection):
                logger.error(
                    "A stored guess cannot be read; it is left out of the board",
                    metadata: metadata.merging(["error": "\(rejection)"]) { $1 })
            }
        }
    }

    /// A guess, in a direct chat only: in a group it would show its letters to everyone.
    /// `read`: the daily game, when the caller has read it already.
    func guess(_ text: String, daily read: DailyGame? = nil, context: inout Context) async throws {
        var daily: DailyGame
        if let read { daily = read } else { daily = try await dailyGame(context) }
        if daily.playedBeforeForgetting { return context.reply(context.texts.playedBeforeForgetting) }
        let maximum = daily.game.maximumGuesses
        if let result = daily.game.result {
            context.reply(context.texts.alreadyFinished(result, maximumGuesses: maximum))
            return
        }
        switch daily.game.submit(text) {
        case .failure(let rejection):
            context.reply(context.texts.rejection(rejection))
        case .success(let row):
            daily.stored.guesses.append(daily.game.wordList.display(row.word).lowercased())
            context.outcome.acceptedGuess = daily.stored.language
            if let result = daily.game.result {
                daily.stored.result = result
                daily.stored.finishedAt = context.now
            }
            try await context.store.save(daily.stored)
            if daily.stored.result != nil {
                try await countOnBoards(daily.stored, context: context)
                try await context.store.requestAnalysis(
                    of: daily.stored.player, language: daily.stored.language, puzzle: daily.stored.puzzle, show: false)
            }
            context.replies.append(liveBoard(daily, context: context))
        }
    }

    private func board(context: inout Context) async throws {
        let daily = try await dailyGame(context)
        if daily.game.rows.isEmpty {
            // In a group, words are not guesses: where to play instead.
            if context.isGroup { return try await playPrivately(context: &context) }
            context.reply(context.texts.noGuessesYet)
        } else if context.isGroup {
            context.reply(groupProgress(daily.game, context: context))
        } else {
            // Asked for: the board again at the bottom of the chat, and the one edited from now on.
            context.replies.append(liveBoard(daily, context: context, reposts: true))
        }
    }

    private func hardMode(_ argument: String, context: inout Context) async throws {
        guard let enable = Self.onOff(argument, empty: true) else {
            return context.reply(context.texts.onOffUsage("hard"))
        }
        context.player.prefersHardMode = enable
        var daily = try await dailyGame(context)
        switch daily.game.setHardMode(enable) {
        case .failure:
            context.reply(context.texts.hardLater)
        case .success:
            if daily.stored.hardMode != enable {
                daily.stored.hardMode = enable
                try await context.store.save(daily.stored)
            }
            context.reply(enable ? context.texts.hardOn : context.texts.hardOff)
        }
    }

    private func statistics(context: inout Context) async throws {
        let language = context.language
        let history = try await context.store.finishedGames(of: context.player.id, language: language)
        let today = context.player.puzzle(at: context.now, schedule: configuration.schedule)
        let scores = try await averageScores(of: context.player.id, language: language, store: context.store)
        var reply = context.texts.statistics(
            Statistics(history: history, today: today), language: language, scores: scores)
        if let practice = try await practiceStatistics(language: language, context: context) {
            reply += "\n\n" + practice
        }
        let official = try await context.store.officialResults(of: context.player.id)
        if !official.isEmpty {
            // The original game's day changes at midnight where the player is.
            let today = DailySchedule.wordle.puzzle(
                at: context.now, rollover: Player.rollover(context.player.timeZone, 0))
            reply += "\n\n" + context.texts.officialStatistics(Statistics(history: official, today: today))
        }
        context.reply(reply)
    }

    private func share(context: inout Context) async throws {
        if !context.isGroup, let practice = try await practiceInFocus(&context) {
            return sharePractice(practice, context: &context)
        }
        let daily = try await dailyGame(context)
        guard
            let share = SharedResult(game: daily.game, puzzle: daily.stored.puzzle, gameName: configuration.gameName)
        else {
            // In a group, a finished game of another language's puzzle is not the group's: say so, not "finish".
            if let group = context.group, let played = try await finishedElsewhere(daily.stored, group: group, context)
            {
                let texts = context.player.language.texts
                return otherLanguageNotice(
                    texts.shareOtherLanguage(played, groupPlays: group.language), context: &context)
            }
            context.reply(context.texts.shareNotFinished)
            return
        }
        if context.isGroup { try await addToBoard(&context) }
        context.reply(share.text(theme: configuration.shareTheme, language: daily.stored.language).htmlEscaped)
    }

    /// The language of the player's finished game of the same puzzle in another language than the group's.
    private func finishedElsewhere(_ game: StoredGame, group: Group, _ context: Context) async throws -> Language? {
        for language in Language.allCases where language != group.language {
            let other = try await context.store.game(of: game.player, language: language, puzzle: game.puzzle)
            if other?.result != nil { return language }
        }
        return nil
    }

    // MARK: - Settings

    private func timeZone(_ argument: String, context: inout Context) {
        var player = context.player
        guard !argument.isEmpty else {
            let pending = player.pendingTimeZone.flatMap { zone in player.pendingFrom.map { (zone, $0) } }
            context.reply(context.texts.timeZoneIs(player.timeZone, hour: player.rolloverHour, pending: pending))
            return
        }
        guard let zone = Self.knownTimeZone(argument) else {
            context.reply(context.texts.unknownTimeZone(argument))
            return
        }
        let next = PuzzleNumber(player.puzzle(at: context.now, schedule: configuration.schedule).rawValue + 1)
        // Chosen: the player no longer follows the group where they were first met.
        player.followsGroup = nil
        if zone == player.timeZone {
            player.pendingTimeZone = nil
            player.pendingFrom = nil
        } else {
            player.pendingTimeZone = zone
            player.pendingFrom = next
        }
        context.player = player
        context.reply(context.texts.timeZoneChanged(zone, from: next))
    }

    /// `on` or `off` (and their Spanish and plain-English words); `empty` for no argument; nil for anything else,
    /// which changes nothing.
    static func onOff(_ argument: String, empty: Bool?) -> Bool? {
        switch argument.lowercased() {
        case "": empty
        case "on", "yes", "sí", "si": true
        case "off", "no": false
        default: nil
        }
    }

    /// An IANA zone name, matched without regard to case: `europe/madrid` is Europe/Madrid.
    static func knownTimeZone(_ text: String) -> String? {
        // The longest IANA name has 30 characters: a longer text is none, and is not compared with each.
        guard text.utf8.count <= 64 else { return nil }
        if TimeZone(identifier: text) != nil, text.contains("/") || text == "UTC" { return text }
        let lowercased = text.lowercased()
        return TimeZone.knownTimeZoneIdentifiers.first { $0.lowercased() == lowercased }
    }

    /// The language a `/start` argument from a play button names (`play-es`); nil for any other.
    static func playedLanguage(fromStart argument: String) -> Language? {
        guard argument.hasPrefix("play-") else { return nil }
        return Language(rawValue: String(argument.dropFirst("play-".count)))
    }

    /// A language as typed after a command: its code (`es`) or its own name (`Español`), in any case.
    static func language(named text: String) -> Language? {
        let lowered = text.lowercased()
        return Language(rawValue: lowered) ?? Language.allCases.first { $0.name.lowercased() == lowered }
    }

    /// The welcome of a direct chat, in the player's language; one that plays another language's puzzle says so.
    /// The welcome, and which puzzle the chat plays when it is not in the player's language or a play button
    /// chose it (`namingPuzzle`): a player who pressed one sees where their words go.
    func welcome(playing language: Language, player: Player, namingPuzzle: Bool = false) -> String {
        let texts = player.language.texts
        let welcome = texts.welcome(
            gameName: configuration.gameName, wordLength: language.wordList.wordLength,
            maximumGuesses: Game.defaultMaximumGuesses)
        return language == player.language && !namingPuzzle ? welcome : welcome + "\n\n" + texts.playing(language)
    }

    /// The direct chat plays `language`'s daily puzzle from now on; the bot keeps the player's language.
    func choosePuzzle(_ language: Language, context: inout Context) {
        context.player.play(language)
        if !context.isGroup { context.language = language }
    }

    private func language(_ argument: String, context: inout Context) {
        guard !argument.isEmpty else {
            context.reply(context.texts.languageIs(context.player.language))
            return
        }
        guard let language = Self.language(named: argument) else {
            context.reply(context.texts.unknownLanguage(argument))
            return
        }
        // The bot's language and the puzzle's: a puzzle chosen with /play gives way to it.
        context.player.language = language
        context.player.playingLanguage = nil
        if !context.isGroup { context.language = language }
        context.reply(context.texts.languageChanged(language))
    }

    // MARK: - Boards

    /// Squares only, for groups while the day is open.
    private func groupProgress(_ game: Game, context: Context) -> String {
        let name = context.player.displayName
        let maximum = game.maximumGuesses
        switch game.result {
        case .won(let guesses): return context.texts.groupWon(name: name, guesses: guesses, maximumGuesses: maximum)
        case .lost: return context.texts.groupLost(name: name, maximumGuesses: maximum)
        case nil:
            let squares = game.rows.map { String($0.feedback.states.map(configuration.shareTheme.square(for:))) }
            return context.texts.groupProgress(
                name: name,
                squares: squares.joined(separator: "\n"),
                guesses: game.rows.count,
                maximumGuesses: maximum
            )
        }
    }
}

extension BotEngine: CustomStringConvertible, CustomReflectable {
    // Its schedules hold the secret's key: a description names the game only.
    public var description: String { "BotEngine(game: \(configuration.gameName))" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

/// What handling a message did, for the runtime to count once its transaction has committed.
public struct MessageOutcome: Sendable, Hashable {
    /// The language of the puzzle a guess was played in, when the message was a guess the game accepted.
    public var acceptedGuess: Language?

    public init(acceptedGuess: Language? = nil) {
        self.acceptedGuess = acceptedGuess
    }
}
