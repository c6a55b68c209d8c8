import Foundation
import TesseraCore
import TesseraTesting
import Testing

@testable import TesseraEngine

/// ``PlayerSettings`` alone: it reads nothing of the store beyond its message, so its turn is built on an empty
/// ``SliceDouble``; every change is the player's record in the reply, saved by the engine.
@Suite("A player's settings, from their message alone")
struct PlayerSettingsFeatureTests {
    typealias Setting = FeatureSetting
    let settings = PlayerSettings(schedule: .tessera)
    let ann = Setting.player(1, "Ann")
    let texts = Language.english.texts

    func turn(_ text: String, as player: Player? = nil, in group: Group? = nil) -> Turn {
        Setting.turn(text, from: player ?? ann, in: group, reads: SliceDouble())
    }

    @Test("A new zone starts with the player's next puzzle; choosing it ends following the group's day")
    func timeZone() throws {
        var follower = ann
        follower.followsGroup = Setting.family
        let reply = settings.timeZone("Europe/Madrid", in: turn("/timezone Europe/Madrid", as: follower))
        let player = try #require(reply.player)
        #expect(player.timeZone == "UTC" && player.pendingTimeZone == "Europe/Madrid")
        #expect(player.pendingFrom == PuzzleNumber(327) && player.followsGroup == nil)
        #expect(reply.writes.isEmpty)
    }

    @Test("An unknown zone, language or switch is refused with what was typed; the record is untouched")
    func refusals() {
        let zone = settings.timeZone("Mars/Olympus", in: turn("/timezone Mars/Olympus"))
        #expect(zone.player == nil && zone.messages.map(\.html) == [texts.unknownTimeZone("Mars/Olympus")])
        let language = settings.language("klingon", in: turn("/language klingon"))
        #expect(language.player == nil && language.messages.map(\.html) == [texts.unknownLanguage("klingon")])
        let remind = settings.remind("maybe", in: turn("/remind maybe"))
        #expect(remind.player == nil && remind.messages.map(\.html) == [texts.onOffUsage("remind")])
    }

    @Test("A new language is said in that language, and a puzzle chosen with /play gives way to it")
    func language() {
        var player = ann
        player.playingLanguage = .english
        let reply = settings.language("es", in: turn("/language es", as: player))
        #expect(reply.player?.language == .spanish && reply.player?.playingLanguage == nil)
        #expect(reply.messages.map(\.html) == [Language.spanish.texts.languageChanged(.spanish)])
    }

    @Test("/remind off stops the reminders and the nudge's naming; on again lets today's reminder come")
    func remind() {
        let off = settings.remind("off", in: turn("/remind off"))
        #expect(off.player?.reminders == false && off.player?.namedInNudges == false)
        var reminded = ann
        reminded.reminders = false
        reminded.remindedPuzzle = PuzzleNumber(326)
        let on = settings.remind("on", in: turn("/remind on", as: reminded))
        #expect(on.player?.reminders == true && on.player?.remindedPuzzle == nil)
        let inGroup = settings.remind("off", in: turn("/remind off", in: Setting.group()))
        #expect(inGroup.player == nil && inGroup.messages.map(\.html) == [texts.remindUsage])
    }

    @Test("/settings effects changes the record only when it changes")
    func effects() {
        let same = settings.effects(ann.messageEffects ? "on" : "off", in: turn("/settings effects"))
        #expect(same.player == nil)
        let flipped = settings.effects(ann.messageEffects ? "off" : "on", in: turn("/settings effects"))
        #expect(flipped.player?.messageEffects == !ann.messageEffects)
    }
}
