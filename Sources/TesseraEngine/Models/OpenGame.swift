import TesseraCore

/// A game a word in the direct chat may go to, named when a word fits none of the open ones.
enum OpenGame: Hashable {
    case daily(Language)
    case practice(PracticeGame.Kind, Language)
}
