import DragKit

// Where the board meets the drag engine: a card's identity (`CardID`, the model's) and the
// engine's handle for what it drags (`ItemID`, DragKit's) are different types, converted here
// and only here. A column dragged by its header is handed to the engine as `ColumnID.item`.

extension CardID {
    /// The card the engine's handle names (the handle of a card given by `ItemID(_:)`).
    public init(_ handle: ItemID) { self.init(handle.rawValue) }
}

extension ItemID {
    /// The engine's handle for a card.
    public init(_ card: CardID) { self.init(card.rawValue) }
}
