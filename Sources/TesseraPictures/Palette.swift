public import TesseraCore

/// A theme's colours, as the share text's squares name them (``ShareTheme``): the original game's greens,
/// yellows and greys on its dark or light background, or orange and blue for colour-blind players.
public struct Palette: Sendable, Hashable {
    public let background: RGB
    /// An empty tile's outline, and the bars of a chart that are not highlighted.
    public let empty: RGB
    public let text: RGB
    /// The letters on coloured tiles.
    public let tileText: RGB
    let correct: RGB
    let present: RGB
    let absent: RGB

    public init(_ theme: ShareTheme) {
        switch theme {
        case .dark, .highContrast:
            (background, empty, text, tileText, absent) = (
                RGB(hex: 0x121213), RGB(hex: 0x3A3A3C), RGB(hex: 0xF8F8F8), RGB(hex: 0xFFFFFF), RGB(hex: 0x3A3A3C)
            )
        case .light:
            (background, empty, text, tileText, absent) = (
                RGB(hex: 0xFFFFFF), RGB(hex: 0xD3D6DA), RGB(hex: 0x1A1A1B), RGB(hex: 0xFFFFFF), RGB(hex: 0x787C7E)
            )
        }
        switch theme {
        case .dark: (correct, present) = (RGB(hex: 0x538D4E), RGB(hex: 0xB59F3B))
        case .light: (correct, present) = (RGB(hex: 0x6AAA64), RGB(hex: 0xC9B458))
        case .highContrast: (correct, present) = (RGB(hex: 0xF5793A), RGB(hex: 0x85C0F9))
        }
    }

    /// A tile's colour for what it says of its letter.
    public func tile(_ state: LetterState) -> RGB {
        switch state {
        case .correct: correct
        case .present: present
        case .absent: absent
        }
    }
}
