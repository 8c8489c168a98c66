package io.millrace.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NexmarkTest {
    private static final int N = 50_000;
    private final Nexmark nexmark = new Nexmark(42, BenchOptions.BASE_TIME, 10_000);

    @Test
    void everyFiftyEventsHoldOnePersonThreeAuctionsAndFortySixBids() {
        int persons = 0;
        int auctions = 0;
        int bids = 0;
        for (long i = 0; i < N; i++) {
            Event e = nexmark.event(i);
            if (e instanceof Person) {
                persons++;
            } else if (e instanceof Auction) {
                auctions++;
            } else {
                bids++;
            }
        }
        assertThat(new int[] {persons, auctions, bids}).containsExactly(N / 50, 3 * N / 50, 46 * N / 50);
    }

    @Test
    void sameSeedGivesEqualEvents_otherSeedGivesOtherBids() {
        Nexmark again = new Nexmark(42, BenchOptions.BASE_TIME, 10_000);
        Nexmark other = new Nexmark(43, BenchOptions.BASE_TIME, 10_000);
        int differing = 0;
        for (long i = 0; i < 5_000; i++) {
            assertThat(again.event(i)).isEqualTo(nexmark.event(i));
            if (!other.event(i).equals(nexmark.event(i))) {
                differing++;
            }
        }
        assertThat(differing).isGreaterThan(4_000);
    }

    @Test
    void idsAreDenseAndBidsAndAuctionsReferToExistingPeopleAndAuctions() {
        long nextPerson = Nexmark.FIRST_PERSON_ID;
        long nextAuction = Nexmark.FIRST_AUCTION_ID;
        long hotBids = 0;
        for (long i = 0; i < N; i++) {
            Event e = nexmark.event(i);
            if (e instanceof Person p) {
                assertThat(p.id()).isEqualTo(nextPerson++);
            } else if (e instanceof Auction a) {
                assertThat(a.id()).isEqualTo(nextAuction++);
                assertThat(a.seller()).isBetween(Nexmark.FIRST_PERSON_ID, nextPerson - 1);
                assertThat(a.category()).isBetween(10L, 14L);
                assertThat(a.expires()).isGreaterThan(a.dateTime());
                assertThat(a.expires() - a.dateTime()).isLessThanOrEqualTo(Nexmark.maxAuctionLength(10_000));
                assertThat(a.reserve()).isGreaterThan(a.initialBid());
            } else if (e instanceof Bid b) {
                assertThat(b.auction()).isBetween(Nexmark.FIRST_AUCTION_ID, nextAuction - 1);
                assertThat(b.bidder()).isBetween(Nexmark.FIRST_PERSON_ID, nextPerson);
                assertThat(b.price()).isBetween(100L, 100_000_000L);
                if (b.auction() == (nextAuction - 1 - Nexmark.FIRST_AUCTION_ID) / 2 * 2 + Nexmark.FIRST_AUCTION_ID) {
                    hotBids++;
                }
            }
        }
        assertThat(hotBids).as("about half the bids go to the hot auction").isBetween(N * 46 / 50 / 3L, N * 46 / 50 * 2 / 3L);
    }

    @Test
    void eventTimeAdvancesAtTheConfiguredRate() {
        assertThat(nexmark.timestamp(0)).isEqualTo(BenchOptions.BASE_TIME);
        assertThat(nexmark.timestamp(10_000)).isEqualTo(BenchOptions.BASE_TIME + 1_000);
        for (long i = 1; i < N; i++) {
            assertThat(nexmark.event(i).dateTime()).isEqualTo(nexmark.timestamp(i)).isGreaterThanOrEqualTo(nexmark.timestamp(i - 1));
        }
    }
}
