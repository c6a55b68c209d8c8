import Foundation
import TesseraCore

/// One message as a feature sees it: what was said, where and when, by whom, and their records as they stand.
/// A feature reads it and answers with a ``Reply``; none changes it. It sees the store only through reads: the
/// message's own values (``store``) and its slice of the rest (``Feature/reads(_:)``); what it changes leaves in
/// the reply.
struct Turn {
    let message: ChatMessage
    let platform: PlatformTraits
    let now: Date
    let store: any MessageReads
    let player: Player
    /// The group the message came from; nil in a direct chat.
    let group: Group?

    /// The language of the puzzle being played: the player's (or the one they chose with `/play`), and in a
    /// group kept to one language, the group's (``Group/puzzleLanguage(of:)``).
    var language: Language { group?.puzzleLanguage(of: player) ?? player.puzzleLanguage }
    var isGroup: Bool { group != nil }
    /// The boards, histories and analyses, beyond the message's own values (``MessageStorage/reads``): a feature
    /// sees only its slice of them (``reads(of:)``).
    private let storeReads: () throws -> any StoreReads

    init(
        message: ChatMessage, platform: PlatformTraits, now: Date, store: any MessageReads,
        storeReads: @escaping () throws -> any StoreReads, player: Player, group: Group?
    ) {
        self.message = message
        self.platform = platform
        self.now = now
        self.store = store
        self.storeReads = storeReads
        self.player = player
        self.group = group
    }
    /// What `feature` reads of the store beyond the message's own values: its slice (``Feature/Reads``). It
    /// throws on a batch's loaded values (``BatchWork``), and the message is handled again on the store.
    func reads<Reading: Feature>(of feature: Reading.Type) throws -> Reading.Reads {
        Reading.slice(try storeReads())
    }
    /// Replies are in the language of the chat they go to: the group's, or the player's own.
    var texts: any Texts { (group?.language ?? player.language).texts }

    /// A message in the chat and thread of the one received, answering it.
    func answer(_ html: String, buttons: [[OutgoingMessage.Button]] = []) -> OutgoingMessage {
        OutgoingMessage(
            chat: message.chat, chatKind: message.chatKind, html: html, replyTo: message.messageID,
            thread: message.thread, buttons: buttons)
    }

    /// The same message from the player as `player` is now: a reply after a change speaks as the change made it
    /// (a new language's words).
    func with(player: Player) -> Turn {
        Turn(
            message: message, platform: platform, now: now, store: store, storeReads: storeReads, player: player,
            group: group)
    }

    /// The turn as a reply leaves it: the player's and the group's records as the reply carries them.
    func applying(_ reply: Reply) -> Turn {
        Turn(
            message: message, platform: platform, now: now, store: store, storeReads: storeReads,
            player: reply.player ?? player, group: reply.group ?? group)
    }

    /// A message in the chat and thread of the one received that answers nothing: a post.
    func post(_ html: String) -> OutgoingMessage {
        OutgoingMessage(chat: message.chat, chatKind: message.chatKind, html: html, thread: message.thread)
    }

    /// A reply of one message answering the one received.
    func reply(_ html: String) -> Reply { Reply(answer(html)) }

    /// A reply laid out with tables, shown as its text where tables do not show.
    func reply(_ layout: RichLayout) -> Reply {
        var message = OutgoingMessage(
            chat: self.message.chat, chatKind: self.message.chatKind, layout: layout, thread: self.message.thread)
        message.replyTo = self.message.messageID
        return Reply(message)
    }

    /// A reaction on the message received; `html` is what a platform without reactions, or a message without an
    /// id, gets instead.
    func reaction(_ reaction: OutgoingMessage.Reaction, otherwise html: String) -> OutgoingMessage {
        guard platform.reactions, let target = message.messageID else { return answer(html) }
        return OutgoingMessage(
            chat: message.chat, chatKind: message.chatKind, html: html, replyTo: target, thread: message.thread,
            action: .react(reaction))
    }
}

/// What a feature made of a ``Turn``: the messages to send, and the records it changed, for the engine to save
/// with them.
struct Reply {
    var messages: [OutgoingMessage] = []
    /// The player's record as the feature left it; nil when it did not change it.
    var player: Player?
    /// The group's record as the feature left it; nil when it did not change it.
    var group: Group?
    /// The language of the puzzle a guess was played in, when the game accepted it (the runtime counts it).
    var acceptedGuess: Language?
    /// What the feature changed besides the records, in order, for the engine to write with them.
    var writes: [Write] = []

    init(_ messages: OutgoingMessage..., player: Player? = nil, group: Group? = nil) {
        self.messages = messages
        self.player = player
        self.group = group
    }

    /// Adds the reply of a later step: its messages after these, and its records, which read this one's.
    mutating func add(_ later: Reply) {
        messages += later.messages
        player = later.player ?? player
        group = later.group ?? group
        acceptedGuess = later.acceptedGuess ?? acceptedGuess
        writes += later.writes
    }

    /// A change a feature made to what is stored, besides the player's and the group's records: the engine
    /// writes it in the one step that saves a message's effects (``BotEngine/apply(_:at:in:)``), after the
    /// records.
    enum Write: Equatable {
        /// Another player's record, as the feature left it: a follower moved with the group's day.
        case player(Player)
        /// A daily game as it now stands: a guess added, its result, its hard mode.
        case dailyGame(StoredGame)
        /// A finished daily game, counted on the board of each of its player's groups that takes it.
        case countOnBoards(StoredGame)
        /// A result counted on its group's board over `periods` (``GroupBoards/count(_:periods:store:)``),
        /// unless the player has one for that puzzle there already.
        case boardResult(BoardResult, periods: [PeriodKey])
        /// A player put on a group's board from the puzzle of the day they joined.
        case join(player: UserID, chat: ChatID, joinedPuzzle: PuzzleNumber)
        /// A player taken off a group's board; their counted results stay.
        case leave(player: UserID, chat: ChatID)
        /// Another group's record, as the feature left it: a forgotten champion's name taken off its team.
        case group(Group)
        /// A forgotten player's game of an open puzzle, remembered by a one-way key only until it closes.
        case replayGuard(key: String, until: PuzzleNumber)
        /// Everything stored about a player, deleted (`/forgetme`).
        case forget(UserID)
        /// A finished daily game's analysis, asked for; `show`: posted once ready.
        case analysis(player: UserID, language: Language, puzzle: PuzzleNumber, show: Bool)
        /// A practice or archive game as it now stands: the player's latest.
        case practiceGame(PracticeGame)
        /// A practice or archive game started on the player's day `until`, counted against the day's limit.
        case practiceStart(key: String, until: PuzzleNumber)
        /// A finished practice or archive game's analysis, asked for; `show`: posted once ready.
        case practiceAnalysis(player: UserID, number: Int, show: Bool)
    }
}

extension Reply {
    /// The reply carrying the player's record as a feature left it, when it differs from `before` and the reply
    /// carries none of its own.
    func saving(_ player: Player, over before: Player) -> Reply {
        var reply = self
        if reply.player == nil, player != before { reply.player = player }
        return reply
    }
}
