// The communicators tasks may use, as small ids carried in envelopes and wire headers.
// (Communicators made by MPI_Comm_split & co. come later.)
#pragma once

namespace bamboo {

enum CommId : int { kCommWorld = 0, kCommSelf = 1 };

inline const char* comm_name(int id) {
    switch (id) {
        case kCommWorld: return "MPI_COMM_WORLD";
        case kCommSelf: return "MPI_COMM_SELF";
        default: return "an unknown communicator";
    }
}

}  // namespace bamboo
