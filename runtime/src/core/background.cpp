#include "core/background.hpp"

#include <boost/context/protected_fixedsize_stack.hpp>

#include <algorithm>
#include <utility>

namespace bamboo {
namespace {

// Pieces run the runtime's collective algorithms and the program's reduction functions. The
// pages are committed as they are touched, and a guard page stops an overflow.
constexpr std::size_t kPieceStack = 1 << 20;

}  // namespace

BackgroundWork::~BackgroundWork() = default;  // a piece still suspended is unwound

void BackgroundWork::start(std::function<void()> work) {
    auto owned = std::make_unique<Piece>();
    Piece& piece = *owned;
    piece.work = std::move(work);
    piece.context = boost::context::fiber(
        std::allocator_arg, boost::context::protected_fixedsize_stack(kPieceStack),
        [&piece](boost::context::fiber&& task) {
            piece.task = std::move(task);
            piece.work();
            piece.done = true;
            return std::move(piece.task);
        });
    pieces_.push_back(std::move(owned));
    resume(piece);
}

void BackgroundWork::wait_until(std::function<bool()> ready) {
    Piece& piece = *current_;
    piece.ready = std::move(ready);
    while (!piece.ready()) piece.task = std::move(piece.task).resume();
    piece.ready = nullptr;
}

bool BackgroundWork::any_ready() const {
    for (const auto& piece : pieces_)
        if (piece->ready && piece->ready()) return true;
    return false;
}

void BackgroundWork::progress() {
    if (inside()) return;  // a piece's own runtime calls: the task resumes the pieces
    bool moved = true;
    while (moved) {
        moved = false;
        for (std::size_t i = 0; i < pieces_.size(); ++i) {
            Piece& piece = *pieces_[i];
            if (piece.ready && piece.ready()) {
                resume(piece);
                moved = true;
            }
        }
    }
}

void BackgroundWork::resume(Piece& piece) {
    current_ = &piece;
    piece.context = std::move(piece.context).resume();
    current_ = nullptr;
    if (!piece.done) return;
    auto ended = std::find_if(pieces_.begin(), pieces_.end(), [&piece](const auto& p) { return p.get() == &piece; });
    pieces_.erase(ended);
}

}  // namespace bamboo
