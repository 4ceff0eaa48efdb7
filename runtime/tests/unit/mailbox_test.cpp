#include "messaging/mailbox.hpp"

#include <gtest/gtest.h>

#include <string>

using namespace bamboo;

namespace {

constexpr int kWorld = 0;
constexpr int kOther = 1;

Message make_message(int source, int tag, int comm, const std::string& body) {
    Message m;
    m.envelope = Envelope{source, tag, comm};
    m.bytes = body.size();
    m.storage = ByteBuffer(body.size());
    body.copy(m.storage.get(), body.size());
    m.data = m.storage.get();
    return m;
}

std::string body_of(const Message& m) { return std::string(m.data, m.bytes); }

// What a task does when it posts a receive.
bool take(Mailbox& box, Pattern p, std::string* body, Envelope* envelope = nullptr) {
    Message m;
    if (!box.take_unexpected(p, &m)) return false;
    *body = body_of(m);
    if (envelope) *envelope = m.envelope;
    return true;
}

}  // namespace

TEST(Mailbox, UnexpectedMessagesFromOneSourceAreTakenInArrivalOrder) {
    Mailbox box;
    box.add_unexpected(make_message(3, 7, kWorld, "first"));
    box.add_unexpected(make_message(3, 7, kWorld, "second"));
    box.add_unexpected(make_message(3, 7, kWorld, "third"));
    std::string body;
    for (const char* expected : {"first", "second", "third"}) {
        ASSERT_TRUE(take(box, Pattern{3, 7, kWorld}, &body));
        EXPECT_EQ(body, expected);
    }
    EXPECT_FALSE(take(box, Pattern{3, 7, kWorld}, &body));
}

TEST(Mailbox, ReceiveTakesTheEarliestMessageItAcceptsAndLeavesOthers) {
    Mailbox box;
    box.add_unexpected(make_message(1, 5, kWorld, "from 1 tag 5"));
    box.add_unexpected(make_message(2, 6, kWorld, "from 2 tag 6"));
    box.add_unexpected(make_message(2, 5, kWorld, "from 2 tag 5"));
    std::string body;
    ASSERT_TRUE(take(box, Pattern{2, 5, kWorld}, &body));
    EXPECT_EQ(body, "from 2 tag 5");
    ASSERT_TRUE(take(box, Pattern{kAny, 6, kWorld}, &body));
    EXPECT_EQ(body, "from 2 tag 6");
    EXPECT_EQ(box.unexpected_count(), 1u);
}

TEST(Mailbox, WildcardsMatchAnySourceAndAnyTagButNotAnotherCommunicator) {
    Mailbox box;
    box.add_unexpected(make_message(4, 9, kOther, "other comm"));
    box.add_unexpected(make_message(4, 9, kWorld, "world"));
    std::string body;
    Envelope envelope{};
    ASSERT_TRUE(take(box, Pattern{kAny, kAny, kWorld}, &body, &envelope));
    EXPECT_EQ(body, "world");
    EXPECT_EQ(envelope.source, 4);
    EXPECT_EQ(envelope.tag, 9);
    EXPECT_FALSE(take(box, Pattern{kAny, kAny, kWorld}, &body));
    EXPECT_FALSE(take(box, Pattern{4, kAny, kWorld}, &body));
    ASSERT_TRUE(take(box, Pattern{kAny, kAny, kOther}, &body));
    EXPECT_EQ(body, "other comm");
}

TEST(Mailbox, ArrivingMessageGoesToTheEarliestAcceptingPostedReceive) {
    Mailbox box;
    PostedReceive specific{Pattern{2, 1, kWorld}};
    PostedReceive any_source{Pattern{kAny, 1, kWorld}};
    PostedReceive any_tag{Pattern{2, kAny, kWorld}};
    box.post(&specific);
    box.post(&any_source);
    box.post(&any_tag);
    EXPECT_EQ(box.match_posted(Envelope{5, 1, kWorld}), &any_source);
    EXPECT_EQ(box.match_posted(Envelope{2, 1, kWorld}), &specific);
    EXPECT_EQ(box.match_posted(Envelope{2, 1, kWorld}), &any_tag);
    EXPECT_EQ(box.match_posted(Envelope{2, 1, kWorld}), nullptr);
}

TEST(Mailbox, PostedReceivesAreNotUnexpectedAndViceVersa) {
    Mailbox box;
    PostedReceive receive{Pattern{1, 1, kWorld}};
    box.post(&receive);
    // A message the posted receive does not accept stays unexpected.
    EXPECT_EQ(box.match_posted(Envelope{1, 2, kWorld}), nullptr);
    box.add_unexpected(make_message(1, 2, kWorld, "tag 2"));
    EXPECT_EQ(box.unexpected_count(), 1u);
    EXPECT_EQ(box.find_unexpected(Pattern{1, 1, kWorld}), nullptr);
    ASSERT_NE(box.find_unexpected(Pattern{1, kAny, kWorld}), nullptr);
    EXPECT_EQ(box.unexpected_count(), 1u);  // find leaves it in place
    EXPECT_EQ(box.match_posted(Envelope{1, 1, kWorld}), &receive);
}

TEST(Mailbox, CountsArrivalsForTheDeadlockWatch) {
    Mailbox box;
    PostedReceive receive{Pattern{kAny, kAny, kWorld}};
    box.post(&receive);
    ASSERT_EQ(box.match_posted(Envelope{0, 0, kWorld}), &receive);
    box.add_unexpected(make_message(0, 0, kWorld, "x"));
    EXPECT_EQ(box.arrivals(), 2u);
}

TEST(Mailbox, CloseHandsBackUnreceivedMessages) {
    Mailbox box;
    box.add_unexpected(make_message(1, 1, kWorld, "left over"));
    std::deque<Message> left = box.close();
    EXPECT_TRUE(box.closed());
    ASSERT_EQ(left.size(), 1u);
    EXPECT_EQ(body_of(left.front()), "left over");
}

TEST(FiringRule, AlreadySatisfiedRuleIsNotArmed) {
    Mailbox box;
    box.add_unexpected(make_message(1, 0, kWorld, "a"));
    box.add_unexpected(make_message(2, 0, kWorld, "b"));
    EXPECT_TRUE(box.arm_rule({Expectation{Pattern{1, 0, kWorld}, 1}, Expectation{Pattern{2, 0, kWorld}, 1}}));
    EXPECT_TRUE(box.armed_rule().empty());
}

TEST(FiringRule, FiresOnlyWhenEveryKeyHasItsCount) {
    Mailbox box;
    box.add_unexpected(make_message(1, 0, kWorld, "early"));
    ASSERT_FALSE(box.arm_rule({Expectation{Pattern{1, 0, kWorld}, 2}, Expectation{Pattern{2, 3, kWorld}, 1}}));
    EXPECT_FALSE(box.rule_satisfied());
    EXPECT_EQ(box.armed_rule()[0].arrived, 1);
    EXPECT_FALSE(box.add_unexpected(make_message(2, 4, kWorld, "wrong tag")));
    EXPECT_FALSE(box.add_unexpected(make_message(2, 3, kWorld, "second key")));
    EXPECT_FALSE(box.rule_satisfied());
    EXPECT_TRUE(box.add_unexpected(make_message(1, 0, kWorld, "first key, second message")));
    EXPECT_TRUE(box.rule_satisfied());
    EXPECT_TRUE(box.armed_rule().empty());
    // Once fired, further arrivals fire nothing.
    EXPECT_FALSE(box.add_unexpected(make_message(1, 0, kWorld, "late")));
}

TEST(FiringRule, WildcardKeysCountEveryMatchingMessage) {
    Mailbox box;
    ASSERT_FALSE(box.arm_rule({Expectation{Pattern{kAny, 5, kWorld}, 3}}));
    EXPECT_FALSE(box.add_unexpected(make_message(0, 5, kWorld, "")));
    EXPECT_FALSE(box.add_unexpected(make_message(7, 6, kWorld, "")));
    EXPECT_FALSE(box.add_unexpected(make_message(3, 5, kOther, "")));
    EXPECT_FALSE(box.add_unexpected(make_message(9, 5, kWorld, "")));
    EXPECT_TRUE(box.add_unexpected(make_message(0, 5, kWorld, "")));
}

TEST(FiringRule, MessagesTakenByPostedReceivesDoNotCount) {
    Mailbox box;
    PostedReceive receive{Pattern{1, 0, kWorld}};
    box.post(&receive);
    ASSERT_FALSE(box.arm_rule({Expectation{Pattern{1, 0, kWorld}, 1}}));
    // The runtime offers an arriving message to posted receives first.
    EXPECT_EQ(box.match_posted(Envelope{1, 0, kWorld}), &receive);
    EXPECT_FALSE(box.rule_satisfied());
    EXPECT_TRUE(box.add_unexpected(make_message(1, 0, kWorld, "")));
}

TEST(FiringRule, OverlappingKeysAreCountedIndependently) {
    Mailbox box;
    ASSERT_FALSE(box.arm_rule({Expectation{Pattern{kAny, 0, kWorld}, 2}, Expectation{Pattern{4, 0, kWorld}, 1}}));
    EXPECT_FALSE(box.add_unexpected(make_message(3, 0, kWorld, "")));
    EXPECT_TRUE(box.add_unexpected(make_message(4, 0, kWorld, "")));
}

TEST(Mailbox, WildcardTakesTheEarliestArrivalAcrossSourcesAndTags) {
    Mailbox box;
    box.add_unexpected(make_message(2, 1, kWorld, "a"));
    box.add_unexpected(make_message(1, 1, kWorld, "b"));
    box.add_unexpected(make_message(2, 2, kWorld, "c"));
    box.add_unexpected(make_message(1, 1, kWorld, "d"));
    std::string body;
    for (const char* expected : {"a", "b", "c", "d"}) {
        ASSERT_TRUE(take(box, Pattern{kAny, kAny, kWorld}, &body));
        EXPECT_EQ(body, expected);
    }
    EXPECT_EQ(box.unexpected_count(), 0u);
}

TEST(Mailbox, ExactReceivesFindTheirMessageAmongManyAndCloseKeepsArrivalOrder) {
    Mailbox box;
    for (int round = 0; round < 1000; ++round)
        for (int source = 0; source < 8; ++source)
            box.add_unexpected(make_message(source, 0, kWorld, std::to_string(round)));
    std::string body;
    ASSERT_TRUE(take(box, Pattern{7, 0, kWorld}, &body));
    EXPECT_EQ(body, "0");
    ASSERT_TRUE(take(box, Pattern{7, 0, kWorld}, &body));
    EXPECT_EQ(body, "1");
    EXPECT_EQ(box.find_unexpected(Pattern{kAny, 0, kWorld})->envelope.source, 0);
    EXPECT_EQ(box.unexpected_count(), 7998u);
    std::deque<Message> left = box.close();
    ASSERT_EQ(left.size(), 7998u);
    EXPECT_EQ(left.front().envelope.source, 0);
    EXPECT_EQ(body_of(left[6]), "0");   // source 6, round 0
    EXPECT_EQ(left[7].envelope.source, 0);  // round 1 starts; source 7's first two were taken
}

TEST(Mailbox, RuleCountsWildcardsOverAllQueues) {
    Mailbox box;
    box.add_unexpected(make_message(1, 3, kWorld, "x"));
    box.add_unexpected(make_message(2, 4, kWorld, "y"));
    EXPECT_TRUE(box.arm_rule({Expectation{Pattern{kAny, kAny, kWorld}, 2, 0}}));
    EXPECT_FALSE(box.arm_rule({Expectation{Pattern{kAny, 3, kWorld}, 2, 0}}));
    EXPECT_TRUE(box.add_unexpected(make_message(5, 3, kWorld, "z")));
}
