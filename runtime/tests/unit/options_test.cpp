#include "process/options.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

using namespace bamboo;

namespace {

// argv as a program receives it, with storage the parser can rearrange.
struct Args {
    explicit Args(std::vector<std::string> words) : storage(std::move(words)) {
        for (std::string& w : storage) pointers.push_back(w.data());
        pointers.push_back(nullptr);
        argc = static_cast<int>(storage.size());
    }
    std::vector<std::string> remaining() const {
        std::vector<std::string> out;
        for (int i = 0; i < argc; ++i) out.emplace_back(pointers[i]);
        return out;
    }
    std::vector<std::string> storage;
    std::vector<char*> pointers;
    int argc;
};

struct Env {
    std::map<std::string, std::string> values;
    EnvLookup lookup() const {
        return [this](const char* name) -> const char* {
            auto it = values.find(name);
            return it == values.end() ? nullptr : it->second.c_str();
        };
    }
};

Options parse(Args& args, const Env& env = {}) {
    return parse_options(args.argc, args.pointers.data(), env.lookup());
}

std::string error_of(std::vector<std::string> words, const Env& env = {}) {
    Args args(std::move(words));
    try {
        parse(args, env);
    } catch (const OptionError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(Options, DefaultsWithoutArgumentsOrEnvironment) {
    Args args({"prog"});
    Options o = parse(args);
    EXPECT_EQ(o.vf, 1);
    EXPECT_EQ(o.workers, 0);
    EXPECT_FALSE(o.single_thread);
    EXPECT_DOUBLE_EQ(o.deadlock_timeout, 60.0);
    EXPECT_EQ(o.stack_size, 8u << 20);
    EXPECT_FALSE(o.help);
    EXPECT_EQ(args.remaining(), std::vector<std::string>{"prog"});
}

TEST(Options, RemovesRuntimeArgumentsWhereverTheyStand) {
    Args args({"prog", "--bamboo-vf", "4", "input.dat", "--bamboo-workers=2", "-n", "10",
               "--bamboo-single-thread", "--last"});
    Options o = parse(args);
    EXPECT_EQ(o.vf, 4);
    EXPECT_EQ(o.workers, 2);
    EXPECT_TRUE(o.single_thread);
    EXPECT_EQ(args.remaining(), (std::vector<std::string>{"prog", "input.dat", "-n", "10", "--last"}));
    EXPECT_EQ(args.pointers[args.argc], nullptr);
}

TEST(Options, ParsesEveryValueKind) {
    Args args({"prog", "--bamboo-deadlock-timeout", "2.5", "--bamboo-stack-size=256K"});
    Options o = parse(args);
    EXPECT_DOUBLE_EQ(o.deadlock_timeout, 2.5);
    EXPECT_EQ(o.stack_size, 256u << 10);
    Args mega({"prog", "--bamboo-stack-size", "3M"});
    EXPECT_EQ(parse(mega).stack_size, 3u << 20);
    Args plain({"prog", "--bamboo-stack-size", "131072"});
    EXPECT_EQ(parse(plain).stack_size, 131072u);
}

TEST(Options, EnvironmentIsReadAndArgvWins) {
    Env env;
    env.values = {{"BAMBOO_VF", "8"}, {"BAMBOO_WORKERS", "3"}, {"BAMBOO_SINGLE_THREAD", "1"},
                  {"BAMBOO_DEADLOCK_TIMEOUT", "5"}, {"BAMBOO_STACK_SIZE", "1M"}};
    Args args({"prog", "--bamboo-vf", "2"});
    Options o = parse(args, env);
    EXPECT_EQ(o.vf, 2);
    EXPECT_EQ(o.workers, 3);
    EXPECT_TRUE(o.single_thread);
    EXPECT_DOUBLE_EQ(o.deadlock_timeout, 5.0);
    EXPECT_EQ(o.stack_size, 1u << 20);
    Env off;
    off.values = {{"BAMBOO_SINGLE_THREAD", "0"}};
    Args none({"prog"});
    EXPECT_FALSE(parse(none, off).single_thread);
}

TEST(Options, HelpFlag) {
    Args args({"prog", "--bamboo-help"});
    EXPECT_TRUE(parse(args).help);
    std::string help = options_help();
    for (const char* name : {"--bamboo-vf N", "--bamboo-workers N", "--bamboo-single-thread",
                             "--bamboo-deadlock-timeout SECONDS", "--bamboo-stack-size BYTES", "--bamboo-help"})
        EXPECT_NE(help.find(name), std::string::npos) << name;
}

TEST(Options, ErrorsNameTheOffendingOption) {
    EXPECT_NE(error_of({"prog", "--bamboo-vff", "2"}).find("unknown option '--bamboo-vff'"), std::string::npos);
    EXPECT_NE(error_of({"prog", "--bamboo-vf"}).find("missing value for --bamboo-vf"), std::string::npos);
    EXPECT_NE(error_of({"prog", "--bamboo-vf", "0"}).find("bad value '0' for --bamboo-vf"), std::string::npos);
    EXPECT_NE(error_of({"prog", "--bamboo-vf=abc"}).find("--bamboo-vf"), std::string::npos);
    EXPECT_NE(error_of({"prog", "--bamboo-workers", "2x"}).find("--bamboo-workers"), std::string::npos);
    EXPECT_NE(error_of({"prog", "--bamboo-deadlock-timeout", "-1"}).find("--bamboo-deadlock-timeout"), std::string::npos);
    EXPECT_NE(error_of({"prog", "--bamboo-stack-size", "12Q"}).find("--bamboo-stack-size"), std::string::npos);
    EXPECT_NE(error_of({"prog", "--bamboo-stack-size", "1K"}).find("at least 64K"), std::string::npos);
    EXPECT_NE(error_of({"prog", "--bamboo-single-thread=maybe"}).find("--bamboo-single-thread"), std::string::npos);
    Env env;
    env.values = {{"BAMBOO_VF", "-3"}};
    EXPECT_NE(error_of({"prog"}, env).find("BAMBOO_VF"), std::string::npos);
}

TEST(Options, ArgumentsThatOnlyLookSimilarAreKept) {
    Args args({"prog", "--bamboo", "-bamboo-vf", "bamboo-vf"});
    parse(args);
    EXPECT_EQ(args.remaining(), (std::vector<std::string>{"prog", "--bamboo", "-bamboo-vf", "bamboo-vf"}));
}

TEST(Options, VfAutoTakesItsCandidates) {
    Args plain({"prog", "--bamboo-vf", "auto", "--bamboo-profile", "runs.txt"});
    Options o = parse(plain);
    EXPECT_EQ(o.vf_candidates, (std::vector<int>{1, 2, 4, 8, 16}));
    EXPECT_EQ(o.profile, "runs.txt");
    Args listed({"prog", "--bamboo-vf=auto:2,8,18"});
    EXPECT_EQ(parse(listed).vf_candidates, (std::vector<int>{2, 8, 18}));
    Args fixed({"prog", "--bamboo-vf", "3"});
    Options f = parse(fixed);
    EXPECT_EQ(f.vf, 3);
    EXPECT_TRUE(f.vf_candidates.empty());
    for (const char* bad : {"auto:", "auto:2,,4", "auto:0", "autox", "auto:2x"})
        EXPECT_EQ(error_of({"prog", "--bamboo-vf", bad}),
                  std::string("bad value '") + bad + "' for --bamboo-vf: expected a positive integer, "
                  "auto, or auto:LIST (e.g. auto:2,8,18)");
}

TEST(Options, PayloadPieceIsAutoZeroOrASize) {
    Args defaults({"prog"});
    EXPECT_TRUE(parse(defaults).payload_piece_auto);
    Args sized({"prog", "--bamboo-payload-piece", "60K"});
    Options o = parse(sized);
    EXPECT_FALSE(o.payload_piece_auto);
    EXPECT_EQ(o.payload_piece, 60u << 10);
    Args whole({"prog", "--bamboo-payload-piece=0"});
    Options w = parse(whole);
    EXPECT_FALSE(w.payload_piece_auto);
    EXPECT_EQ(w.payload_piece, 0u);
    for (const char* bad : {"1K", "60X", "-4K", "", "4G"})
        EXPECT_EQ(error_of({"prog", "--bamboo-payload-piece", bad}),
                  std::string("bad value '") + bad + "' for --bamboo-payload-piece: expected auto, 0, "
                  "or a size of at least 4K (K and M suffixes)");
}

TEST(Options, QueueBindingAndSlowdown) {
    Args defaults({"prog"});
    Options d = parse(defaults);
    EXPECT_EQ(d.queue, QueueKind::shared);
    EXPECT_EQ(d.bind_after, kNeverBind);
    EXPECT_TRUE(d.slowdown.empty());

    Args args({"prog", "--bamboo-queue", "steal", "--bamboo-bind-after", "25", "--bamboo-slowdown", "1,4.5,2"});
    Options o = parse(args);
    EXPECT_EQ(o.queue, QueueKind::steal);
    EXPECT_EQ(o.bind_after, 25);
    EXPECT_EQ(o.slowdown, (std::vector<double>{1, 4.5, 2}));

    Args zero({"prog", "--bamboo-queue=private", "--bamboo-bind-after=0"});
    Options z = parse(zero);
    EXPECT_EQ(z.queue, QueueKind::private_queues);
    EXPECT_EQ(z.bind_after, 0);

    EXPECT_NE(error_of({"prog", "--bamboo-queue", "fifo"}).find("expected private, shared or steal"), std::string::npos);
    EXPECT_NE(error_of({"prog", "--bamboo-bind-after", "-1"}).find("--bamboo-bind-after"), std::string::npos);
    EXPECT_NE(error_of({"prog", "--bamboo-slowdown", "1,0.5"}).find("factors of at least 1"), std::string::npos);
    EXPECT_NE(error_of({"prog", "--bamboo-slowdown", "1,,2"}).find("--bamboo-slowdown"), std::string::npos);
}

TEST(Options, TraceFilterTakesASpecAndSaysWhatIsWrongWithABadOne) {
    Args none({"prog"});
    EXPECT_TRUE(parse(none).trace_filter.spec.empty());
    Args args({"prog", "--bamboo-trace-filter", "kinds=task,ranks=2"});
    Options on = parse(args);
    EXPECT_EQ(on.trace_filter.spec, "kinds=task,ranks=2");
    EXPECT_TRUE(on.trace_filter.keeps_rank(2) && !on.trace_filter.keeps_rank(1));
    EXPECT_EQ(error_of({"prog", "--bamboo-trace-filter", "kinds=tasks"}),
              "bad value 'kinds=tasks' for --bamboo-trace-filter: kinds=tasks: 'tasks' is not one of task, idle, "
              "wait, engine, message, rma");
}

TEST(Options, TraceTakesAFileAndItsBufferARecordCount) {
    Args none({"prog"});
    Options off = parse(none);
    EXPECT_TRUE(off.trace.empty());
    EXPECT_EQ(off.trace_events, std::size_t(1) << 20);
    Args args({"prog", "--bamboo-trace", "run.json", "--bamboo-trace-events=5000"});
    Options on = parse(args);
    EXPECT_EQ(on.trace, "run.json");
    EXPECT_EQ(on.trace_events, 5000u);
    EXPECT_EQ(args.remaining(), std::vector<std::string>{"prog"});
    Env env;
    env.values = {{"BAMBOO_TRACE", "env.json"}};
    Args bare({"prog"});
    EXPECT_EQ(parse(bare, env).trace, "env.json");
    EXPECT_NE(error_of({"prog", "--bamboo-trace"}).find("missing value for --bamboo-trace"), std::string::npos);
    EXPECT_NE(error_of({"prog", "--bamboo-trace-events", "0"}).find("--bamboo-trace-events"), std::string::npos);
}
