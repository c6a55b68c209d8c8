/// The letters of a language, and how the characters people type map onto them.
///
/// A letter's code is its index in ``letters``. Typed characters are lowercased and, when they are not
/// letters of their own, folded onto one (`á` → `a`), so `ÁRBOL` is typed as `arbol` while Spanish
/// keeps `ñ` as a letter distinct from `n`.
public struct Alphabet: Sendable {
    /// The letters, in code order.
    public let letters: [Character]
    /// Keyboard rows for showing which letters have been tried.
    public let keyboardRows: [[Character]]
    private let codes: [Character: UInt8]
    private let scalarCodes: [Unicode.Scalar: UInt8]

    /// Creates an alphabet of at most 32 letters.
    public init(letters: String, keyboardRows: [String]) {
        precondition(letters.count <= 32, "letters are coded in 5 bits")
        self.letters = Array(letters)
        self.keyboardRows = keyboardRows.map(Array.init)
        var codes: [Character: UInt8] = [:]
        var scalarCodes: [Unicode.Scalar: UInt8] = [:]
        for (code, letter) in letters.enumerated() {
            codes[letter] = UInt8(code)
            if letter.unicodeScalars.count == 1, let scalar = letter.unicodeScalars.first {
                scalarCodes[scalar] = UInt8(code)
            }
        }
        self.codes = codes
        self.scalarCodes = scalarCodes
    }

    /// The code of the letter a typed character stands for, or `nil` when it is not a letter here.
    public func code(of typed: Character) -> UInt8? {
        let lowered = Character(typed.lowercased())
        if let code = codes[lowered] { return code }
        guard let folded = Self.diacriticFolding[lowered] else { return nil }
        return codes[folded]
    }

    /// The code of a lowercase, precomposed letter; the fast path for loading generated word lists.
    func code(ofCanonical scalar: Unicode.Scalar) -> UInt8? {
        scalarCodes[scalar]
    }

    /// The letter for a code, uppercased as the game shows it.
    public func displayLetter(_ code: UInt8) -> Character {
        Character(letters[Int(code)].uppercased())
    }

    /// Latin letters with diacritics and the base letter they are typed as when the alphabet lacks them.
    private static let diacriticFolding: [Character: Character] = {
        let groups: [Character: String] = [
            "a": "áàâäãåā", "c": "çćč", "e": "éèêëē", "i": "íìîïī", "n": "ñń",
            "o": "óòôöõøō", "s": "šś", "u": "úùûüū", "y": "ýÿ", "z": "žźż",
        ]
        var folding: [Character: Character] = [:]
        for (base, variants) in groups {
            for variant in variants { folding[variant] = base }
        }
        return folding
    }()
}

extension Alphabet {
    /// The 26 letters of English on a QWERTY keyboard.
    public static let english = Alphabet(
        letters: "abcdefghijklmnopqrstuvwxyz",
        keyboardRows: ["qwertyuiop", "asdfghjkl", "zxcvbnm"]
    )

    /// The 27 letters of Spanish, with ñ, on a Spanish keyboard.
    public static let spanish = Alphabet(
        letters: "abcdefghijklmnñopqrstuvwxyz",
        keyboardRows: ["qwertyuiop", "asdfghjklñ", "zxcvbnm"]
    )
}
