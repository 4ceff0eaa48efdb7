#include "core/background.hpp"

#include <boost/context/protected_fixedsize_stack.hpp>

#include <algorithm>
#include <mutex>
#include <utility>
#include <vector>

#include "util/spin.hpp"

namespace bamboo {
namespace {

// Pieces run the runtime's collective algorithms and the program's reduction functions. The
// pages are committed as they are touched, and a guard page stops an overflow.
constexpr std::size_t kPieceStack = 1 << 20;
// Stacks kept for the next pieces: mapping a stack, its guard and its first pages afresh
// for each nonblocking collective cost more than a small collective itself (12 us of an
// MPI_Ibcast's 13.6 at 1 B, 2 processes x VF 2), and unmapping one interrupts every core
// that runs a thread of the process.
constexpr std::size_t kKeptStacks = 64;

// The stack allocator of pieces: protected stacks, reused.
class PieceStacks {
public:
    boost::context::stack_context allocate() {
        {
            std::lock_guard<SpinLock> lock(mutex_);
            if (!kept_.empty()) {
                boost::context::stack_context stack = kept_.back();
                kept_.pop_back();
                return stack;
            }
        }
        return boost::context::protected_fixedsize_stack(kPieceStack).allocate();
    }
    void deallocate(boost::context::stack_context& stack) noexcept {
        {
            std::lock_guard<SpinLock> lock(mutex_);
            if (kept_.size() < kKeptStacks) {
                kept_.push_back(stack);
                return;
            }
        }
        boost::context::protected_fixedsize_stack(kPieceStack).deallocate(stack);
    }

private:
    SpinLock mutex_;
    std::vector<boost::context::stack_context> kept_;
};

// Never destroyed: the stacks it keeps live as long as the process.
PieceStacks& piece_stacks() {
    static PieceStacks* stacks = new PieceStacks;
    return *stacks;
}

// What a piece's fiber takes: the shared PieceStacks.
struct PieceStackAllocator {
    boost::context::stack_context allocate() { return piece_stacks().allocate(); }
    void deallocate(boost::context::stack_context& stack) noexcept { piece_stacks().deallocate(stack); }
};

}  // namespace

BackgroundWork::~BackgroundWork() = default;  // a piece still suspended is unwound

void BackgroundWork::start(std::function<void()> work) {
    auto owned = std::make_unique<Piece>();
    Piece& piece = *owned;
    piece.work = std::move(work);
    piece.context = boost::context::fiber(
        std::allocator_arg, PieceStackAllocator{},
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
