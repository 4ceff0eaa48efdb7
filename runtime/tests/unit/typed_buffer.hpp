// `count` elements of `type` at `base`, described as the runtime describes a call's buffer
// (the tests of datatypes and of the bytes buffers share).
#pragma once

#include <gtest/gtest.h>

#include "messaging/datatype.hpp"

namespace bamboo {

inline TypedBuffer typed(void* base, int count, MPI_Datatype type) {
    TypedBuffer buffer;
    buffer.base = base;
    buffer.count = count;
    buffer.type = type;
    EXPECT_TRUE(describe_datatype(type, &buffer.layout));
    return buffer;
}

}  // namespace bamboo
