import Foundation

extension BoardApp {
    // MARK: Recent messages

    /// Keeps the status just set in the messages log: not the idle hint, and not the words a drag
    /// under way says about where the card would land (one per pointer motion).
    mutating func noteStatus() {
        guard !coordinator.isDragging, status != idleHint else { return }
        messages.record(status, at: Date().timeIntervalSince1970)
    }

    /// Opens the recent messages scrolled to the newest.
    mutating func openMessages() {
        mode = .messages(MessagesMode(newestOf: messages, size: size))
    }
}
