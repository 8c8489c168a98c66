package io.millrace.bench.workload;

/**
 * TJOIN's versioned table: an auction's terms (reserve and category), keyed by auction id, valid from
 * {@code validFrom}. Nexmark auctions never change, so the versions are derived from the auctions themselves, the
 * same way by every engine: an auction opens with its own terms ({@link #opening}), and when auction {@code n}
 * opens, auction {@code n - Query.TJOIN_REVISION_LAG} takes new terms from it: the new auction's initial bid as its
 * reserve, its category ({@link #revision}). As a changelog, an opening is an insert and a revision an update of the
 * auction's row.
 */
public record AuctionTerms(long auction, long reserve, long category, long validFrom, boolean revision) {
    /** The terms {@code a} opens with, valid from its opening. */
    public static AuctionTerms opening(Auction a) {
        return new AuctionTerms(a.id(), a.reserve(), a.category(), a.dateTime(), false);
    }

    /** The terms {@code a}'s opening gives an older auction, valid from that moment; null while there is none. */
    public static AuctionTerms revision(Auction a) {
        long revised = a.id() - Query.TJOIN_REVISION_LAG;
        return revised < Nexmark.FIRST_AUCTION_ID ? null : new AuctionTerms(revised, a.initialBid(), a.category(), a.dateTime(), true);
    }
}
