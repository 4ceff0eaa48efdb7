// What a copy of message data costs in simulated time, under SimGrid SMPI.
//
// SMPI charges the code between MPI calls as compute, at the CPU time it took, and MPI's own
// work by its model (smpi/os, smpi/or: a cost per message and per byte, the byte cost being
// the library's copy). A plain MPI program hands its faces to MPI_Isend as derived
// datatypes and pays the model's byte cost for them; the runtime packs, unpacks and copies
// the same faces itself, which SMPI would charge at the time they took (MPI_Pack and
// MPI_Unpack included: SMPI times them like the program's own code, and its engine takes
// 1 ns per byte of a 96 x 96 face here, ten times the model's figure). With
// BAMBOO_SMPI_BYTE_COST set (simulated seconds per byte; bench/smpi/run gives it the model's
// figure) every copy of message data the runtime makes is charged like MPI's: at that rate,
// with its measured time left out. Outside SMPI this is empty and costs nothing.
#pragma once

#include <mpi.h>

#include <cstddef>

namespace bamboo {

class CopyCharge {
public:
    explicit CopyCharge(std::size_t bytes);
    ~CopyCharge();
    CopyCharge(const CopyCharge&) = delete;
    CopyCharge& operator=(const CopyCharge&) = delete;

#ifdef SMPI_H
private:
    double seconds_ = 0;
#endif
};

#ifndef SMPI_H
inline CopyCharge::CopyCharge(std::size_t) {}
inline CopyCharge::~CopyCharge() = default;
#endif

}  // namespace bamboo
