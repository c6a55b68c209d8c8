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
    /// What every feature shares: the configuration, the answers and lists, the secret, the log.
    let core: EngineCore
    public var configuration: EngineConfiguration { core.configuration }
    var logger: Logger { core.logger }

    /// The features, each a type of its own.
    var leaderboards: Leaderboards { Leaderboards(schedule: configuration.schedule) }
    var playerSettings: PlayerSettings { PlayerSettings(schedule: configuration.schedule) }
    var privacy: Privacy { Privacy(core: core) }
    var reminders: Reminders { Reminders(schedule: configuration.schedule) }
    var daySummaries: DaySummaries { DaySummaries(core: core) }
    var groupBoards: GroupBoards { GroupBoards(core: core) }
    var dailyPlay: DailyPlay { DailyPlay(core: core) }
    var practice: Practice { Practice(core: core) }
    var analyses: Analyses { Analyses(core: core) }
    var pastes: Pastes { Pastes(core: core) }

    public init(configuration: EngineConfiguration, secret: ScheduleSecret, logger: Logger) {
        core = EngineCore(configuration: configuration, secret: secret, logger: logger)
    }

    /// The post a ``OutgoingMessage/Action/postPlayerData(of:)`` message becomes when it is sent
    /// (``Privacy/gatherPlayerData(_:at:in:)``).
    public func gatherPlayerData(_ message: OutgoingMessage, at now: Date, in store: any GameStoreTransaction)
        async throws -> OutgoingMessage?
    {
        try await privacy.gatherPlayerData(message, at: now, in: store)
    }

    /// Closes the days of every active group (of `platform`, when given) whose summary is due, in the caller's
    /// transaction: each group's day is decided from what is stored (``DaySummaries/close(_:at:reads:)``), then
    /// its posts are queued in their order, in one call, and the group saved when it changed. Returns how many
    /// posts were queued.
    @discardableResult
    public func closeDays(at now: Date, on platform: Platform? = nil, in store: any GameStoreTransaction)
        async throws -> Int
    {
        try await store.removeReplayGuards(before: core.earliestOpenPuzzle(at: now))
        var queued = 0
        for group in try await store.activeGroups(on: platform) {
            let (closed, messages) = try await daySummaries.close(group, at: now, reads: store)
            if !messages.isEmpty { try await store.enqueue(messages) }
            if closed != group { try await store.save(closed) }
            queued += messages.count(where: { $0.action == .post })
        }
        return queued
    }

    /// Queues the streak reminders that are due (``Reminders``), in the caller's transaction; returns how many.
    /// `platform`: that platform's players only, each reminded by their own platform's day closer; nil for all.
    @discardableResult
    public func queueReminders(at now: Date, on platform: Platform? = nil, in store: any GameStoreTransaction)
        async throws -> Int
    {
        var queued = 0
        for var player in try await store.playersWithReminders()
        where platform.map({ player.id.platform == $0 }) ?? true {
            guard let puzzle = reminders.due(for: player, at: now) else { continue }
            player.remindedPuzzle = puzzle
            try await store.save(player)
            let history = try await store.finishedGames(of: player.id, language: player.language)
            guard let reminder = reminders.reminder(for: player, puzzle: puzzle, history: history, at: now) else {
                continue
            }
            try await store.enqueue([reminder])
            queued += 1
        }
        return queued
    }

    /// Counts a result on a group's board (``GroupBoards/count(_:periods:store:)``).
    public func count(_ result: BoardResult, periods: [PeriodKey], store: any GameStoreTransaction) async throws
        -> Bool
    {
        try await groupBoards.count(result, periods: periods, store: store)
    }

    func guessList(_ language: Language) -> WordList { core.guessList(language) }
    func answer(for puzzle: PuzzleNumber, in language: Language) -> Word { core.answer(for: puzzle, in: language) }

    /// Handles one message: updates the store and queues the replies in its outbox. Returns what it did that
    /// the runtime counts (its metrics): the engine itself knows no metrics.
    @discardableResult
    public func handle(_ message: ChatMessage, at now: Date, in store: any MessageStorage) async throws
        -> MessageOutcome
    {
        var input = BotInput(message)
        // Typing the bot's name anywhere asks a query: it is answered, and stores nothing about the asker.
        if case .query(let id) = message.event {
            let answer = try await dailyPlay.answerShareQuery(id: id, message: message, at: now, in: store)
            try await store.enqueue([answer])
            return MessageOutcome()
        }
        try await store.noteActivity(in: message.chat)
        // A typed confirmation of /forgetme (platforms without buttons) is its button's press: handled before
        // anything is stored for the sender, as a press is.
        if !configuration.platform.buttons, let command = message.command, command.known == .forgetme,
            !command.argument.isEmpty
        {
            let reply = try await privacy.typedConfirmation(
                command.argument, message: message, at: now, in: store, reads: try store.reads)
            try await apply(reply, at: now, in: store)
            return MessageOutcome()
        }
        if let button = message.button {
            // Stats, Share and Analysis are their commands, written as typed; the other buttons confirm what they
            // were sent with.
            let parts = button.split(separator: " ", maxSplits: 1)
            let command = ChatCommand(name: parts.first.map(String.init) ?? "", argument: parts.dropFirst().joined())
            guard command.known?.isButton == true else {
                let reply = try await privacy.pressed(
                    button, message: message, at: now, in: store, reads: try store.reads)
                try await apply(reply, at: now, in: store)
                return MessageOutcome()
            }
            input = .command(command)
        }
        let group = try await group(of: message, at: now, in: store)
        let (player, firstPrivate) = try await player(sending: message, in: group, at: now, in: store)
        let turn = Turn(
            message: message, platform: configuration.platform, now: now, store: store,
            storeReads: { try store.reads }, player: player, group: group)
        var reply = try await respond(to: input, in: turn, firstMessage: firstPrivate)
        let after = turn.applying(reply)
        if firstPrivate, let index = reply.messages.firstIndex(where: { $0.chat == message.chat }) {
            let day = after.player.pendingTimeZone ?? after.player.timeZone
            reply.messages[index].html += "\n\n" + after.texts.yourDay(day, hour: after.player.rolloverHour)
        }
        if after.player != player { try await store.save(after.player) }
        if let changed = after.group, changed != group { try await store.save(changed) }
        try await apply(reply.writes, at: now, in: store)
        try await enqueueWithinBacklog(reply.messages, in: after, store: store)
        return MessageOutcome(acceptedGuess: reply.acceptedGuess)
    }

    /// A reply that carries no records of the sender's (a button's press, handled before anything is stored for
    /// them): its writes, then its messages.
    private func apply(_ reply: Reply, at now: Date, in store: any MessageStorage) async throws {
        try await apply(reply.writes, at: now, in: store)
        if !reply.messages.isEmpty { try await store.enqueue(reply.messages) }
    }

    /// Writes what a reply changed besides the records, in its order: the one place a message's features'
    /// changes reach the store.
    func apply(_ writes: [Reply.Write], at now: Date, in store: any MessageStorage) async throws {
        for write in writes {
            switch write {
            case .player(let player):
                try await store.save(player)
            case .dailyGame(let game):
                try await store.save(game)
            case .countOnBoards(let game):
                try await groupBoards.countOnBoards(game, at: now, in: store)
            case .boardResult(let result, let periods):
                _ = try await groupBoards.count(result, periods: periods, store: store)
            case .join(let player, let chat, let joinedPuzzle):
                _ = try await store.whole.addMember(player, to: chat, joinedPuzzle: joinedPuzzle)
            case .leave(let player, let chat):
                _ = try await store.whole.removeMember(player, from: chat)
            case .group(let group):
                try await store.save(group)
            case .replayGuard(let key, let until):
                try await store.whole.guardReplay(key, until: until)
            case .forget(let player):
                _ = try await store.whole.forget(player)
            case .analysis(let player, let language, let puzzle, let show):
                try await store.requestAnalysis(of: player, language: language, puzzle: puzzle, show: show)
            case .practiceGame(let game):
                try await store.whole.save(game)
            case .practiceStart(let key, let until):
                try await store.whole.countPracticeStart(key, until: until)
            case .practiceAnalysis(let player, let number, let show):
                try await store.whole.requestPracticeAnalysis(of: player, number: number, show: show)
            }
        }
    }

    /// The group a message came from, made with the defaults when it is new; nil in a direct chat.
    private func group(of message: ChatMessage, at now: Date, in store: any MessageStorage) async throws
        -> Group?
    {
        guard message.chatKind == .group else { return nil }
        if let group = try await store.group(message.chat) { return group }
        let created = groupBoards.newGroup(message.chat, at: now)
        try await store.save(created)
        return created
    }

    /// The sender's record, made on their first message and saved when it changed: their name as the platform
    /// gives it, their direct chat, a pending zone that is due. `firstPrivate`: this is their first message in
    /// the direct chat, whose reply says which day they are on.
    private func player(
        sending message: ChatMessage, in group: Group?, at now: Date, in store: any MessageStorage
    ) async throws -> (player: Player, firstPrivate: Bool) {
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
        return (player, firstPrivate)
    }

    /// Replies waiting for one chat at most: a chat that floods the bot gets one "slow down" and no more
    /// replies until its queue drains, instead of hundreds that would hold it up for minutes.
    static let backlogLimit = 30

    private func enqueueWithinBacklog(_ replies: [OutgoingMessage], in turn: Turn, store: any MessageStorage)
        async throws
    {
        let chat = turn.message.chat
        let own = replies.filter { $0.chat == chat }
        guard !own.isEmpty else { return try await store.enqueue(replies) }
        let waiting = try await store.pendingCount(in: chat)
        if waiting < Self.backlogLimit { return try await store.enqueue(replies) }
        try await store.enqueue(replies.filter { $0.chat != chat })
        if waiting == Self.backlogLimit {
            try await store.enqueue([
                OutgoingMessage(
                    chat: chat, chatKind: turn.message.chatKind, html: turn.texts.slowDown,
                    replyTo: turn.message.messageID,
                    thread: turn.message.thread)
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
        if message.revealsGuess { return [.botMayDeleteMessages] }
        guard let command = message.command, !command.argument.isEmpty else { return [] }
        return command.known == .settings ? [.senderIsAdministrator] : []
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
    /// The message could not be handled, and was given up on: nothing of it was kept, and it is acknowledged
    /// with its batch, so that it is never read again.
    public var givenUp: Bool

    public init(acceptedGuess: Language? = nil, givenUp: Bool = false) {
        self.acceptedGuess = acceptedGuess
        self.givenUp = givenUp
    }
}
