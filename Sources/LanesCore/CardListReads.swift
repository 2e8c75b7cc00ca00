extension CardList {
    /// Calls `body` with each card's title bytes, in column order, read where they are kept: no
    /// card is copied, no string built, no reference counted per card (what a scan of every title
    /// on the screen's path, like the swimlane placement, needs).
    public func forEachTitleUTF8(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        for chunk in storageChunks {
            // The chunk, and so every card's title slab, is alive for the whole call.
            try chunk.withUnsafeBufferPointer { cards in
                for k in 0..<cards.count { try body(cards[k].titleText.unsafeUTF8) }
            }
        }
    }
}

extension CardList {
    /// The cards at `indices`, in that order, as a list of their own (one lane's cards in a
    /// column). Here rather than at the caller: the generic `init` over another module's lazy
    /// sequence is not specialised, and looked up type metadata for every card.
    public func picking(_ indices: [Int]) -> CardList {
        var picked = CardList()
        for i in indices { picked.append(self[i]) }
        return picked
    }
}
