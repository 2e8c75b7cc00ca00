/// A command (`lanes` subcommands, the agent's tools) that cannot do what was asked.
///
/// A value: a kind and one sentence, plus the door's refusal when the door refused the edit, so
/// whoever words it for a person adds its own hint (`lanes` says `--force moves anyway`; the
/// terminal, which has no `--force`, says only the sentence). `lanes` prints it and sets the
/// exit status (`status`).
public struct CommandError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// No such file, card or column, or the file cannot be used: exit status 1.
        case notFound
        /// Malformed input, an ambiguous name, a bad option: exit status 2.
        case badInput
    }

    /// What the door refused and why: the edit's kind, and the refusal itself.
    public struct Refused: Equatable, Sendable {
        /// The kind of edit refused, as far as a hint needs it.
        public enum Asked: Equatable, Sendable {
            /// A card added (`addCard`).
            case add
            /// Cards moved, inside a board, into a lane or onto another board.
            case move
            /// A column's accept rule set.
            case acceptRule
            case other
        }

        public var asked: Asked
        public var refusal: EditRefusal

        public init(_ edit: BoardEdit, _ refusal: EditRefusal) {
            switch edit {
            case .addCard: asked = .add
            case .moveCards, .moveCardsToLane, .receiveCards: asked = .move
            case .setAcceptRule: asked = .acceptRule
            default: asked = .other
            }
            self.refusal = refusal
        }
    }

    public var kind: Kind
    public var message: String
    /// Set when the door refused the command's edit (`message` is then the door's sentence).
    public var refused: Refused?

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The door's refusal of `edit`, as a command's error (bad input: exit status 2).
    public init(refused refusal: EditRefusal, of edit: BoardEdit) {
        self.kind = .badInput
        self.message = refusal.words
        self.refused = Refused(edit, refusal)
    }

    public var description: String { message }

    public var status: Int32 { kind == .notFound ? 1 : 2 }
}
