#include "util/host_memory.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <string>

using namespace bamboo;

TEST(HostMemory, ABlockStartsZeroFilled) {
    for (bool shared : {false, true}) {
        std::string error;
        auto block = HostMemory::create(4096, shared, &error);
        ASSERT_TRUE(block) << error;
        for (int i = 0; i < 4096; ++i) ASSERT_EQ(block->data()[i], 0);
    }
}

TEST(HostMemory, TasksOfAProcessShareOneMapping) {
    for (bool shared : {false, true}) {
        std::string error;
        auto made = HostMemory::create(100, shared, &error);
        ASSERT_TRUE(made) << error;
        auto opened = HostMemory::open(made->name(), 100, &error);
        ASSERT_TRUE(opened) << error;
        EXPECT_EQ(opened.get(), made.get());
    }
}

namespace {

// A block made by a child process, which tells its name through a pipe, waits for this
// process to write into it, checks what was written, unlinks the block and exits: 0 if it
// read what it expected.
struct MadeElsewhere {
    std::string name;
    pid_t child = -1;
    int go = -1;  // a byte written here lets the child go on

    explicit MadeElsewhere(bool shared) {
        int names[2], gos[2];
        if (pipe(names) != 0 || pipe(gos) != 0) return;
        child = fork();
        if (child == 0) {
            std::string error;
            auto block = HostMemory::create(1 << 20, shared, &error);
            if (!block) _exit(3);
            std::strcpy(block->data() + 100, "from the child");
            char name_bytes[64] = {};
            std::strncpy(name_bytes, block->name().c_str(), sizeof name_bytes - 1);
            if (write(names[1], name_bytes, sizeof name_bytes) != sizeof name_bytes) _exit(4);
            char byte;
            if (read(gos[0], &byte, 1) != 1) _exit(5);
            bool seen = block->data()[(1 << 20) - 1] == 42;
            block->unlink();
            _exit(seen ? 0 : 1);
        }
        close(names[1]);
        close(gos[0]);
        go = gos[1];
        char name_bytes[64] = {};
        if (read(names[0], name_bytes, sizeof name_bytes) == sizeof name_bytes) name = name_bytes;
        close(names[0]);
    }

    int finish() {
        char byte = 1;
        if (write(go, &byte, 1) != 1) return -1;
        close(go);
        int status = -1;
        waitpid(child, &status, 0);
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
};

}  // namespace

TEST(HostMemory, AnotherProcessOpensTheBlockByItsName) {
    MadeElsewhere made(/*shared=*/true);
    ASSERT_FALSE(made.name.empty());
    std::string error;
    auto block = HostMemory::open(made.name, 1 << 20, &error);
    ASSERT_TRUE(block) << error;
    EXPECT_STREQ(block->data() + 100, "from the child");
    block->data()[(1 << 20) - 1] = 42;
    EXPECT_EQ(made.finish(), 0);
    // Unlinked by its maker, which has gone: the memory stays while mapped here, but the name
    // opens nothing any more.
    EXPECT_STREQ(block->data() + 100, "from the child");
    const std::string name = block->name();
    block.reset();
    EXPECT_FALSE(HostMemory::open(name, 1 << 20, &error));
    EXPECT_NE(error.find("cannot open"), std::string::npos) << error;
}

TEST(HostMemory, ABlockOfOneProcessIsNotOpenedByAnother) {
    MadeElsewhere made(/*shared=*/false);
    ASSERT_FALSE(made.name.empty());
    std::string error;
    EXPECT_FALSE(HostMemory::open(made.name, 1 << 20, &error));
    EXPECT_NE(error.find("cannot open the shared memory object"), std::string::npos) << error;
    EXPECT_EQ(made.finish(), 1);  // nothing written into the child's block
}
