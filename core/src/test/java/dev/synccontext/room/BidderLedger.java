package dev.synccontext.room;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What one bidder of the auction-room tests was told, in the order it was told: the room's answer to each of its
 * bids, and the room's notices that a bid of its was beaten. Not thread-safe: touched only on the bidder's own
 * context, which is what those tests prove is enough. {@link #outbidBeforeAnswer()} counts the reordering the
 * hop-back recipe lets happen (told a bid was beaten before being told it was accepted); with {@link Room#ask} it
 * stays zero. Shared through core's test jar: the room's own load test and the HTTP and STOMP one keep the same
 * ledger.
 */
public final class BidderLedger {

    private int answers;
    private final List<Integer> acceptedSeqs = new ArrayList<>();
    private int lastAcceptedSeq = -1;
    private boolean leading;
    private int outbidBeforeAnswer;

    /** The room's answer to one of its bids: the accepted bid's place in the history, or {@code null} if refused. */
    public void answered(@Nullable Integer acceptedSeq) {
        answers++;
        if (acceptedSeq != null) {
            acceptedSeqs.add(acceptedSeq);
            lastAcceptedSeq = acceptedSeq;
            leading = true;
        }
    }

    /** The room's notice that the bid at {@code beatenSeq} was beaten. */
    public void outbid(int beatenSeq) {
        if (beatenSeq > lastAcceptedSeq) {
            outbidBeforeAnswer++; // told its bid was beaten before being told it was accepted
        }
        if (beatenSeq >= lastAcceptedSeq) {
            leading = false;
        }
    }

    public int answers() {
        return answers;
    }

    /** A copy of the places of its accepted bids, in the order the room answered them. */
    public List<Integer> acceptedSeqs() {
        return List.copyOf(acceptedSeqs);
    }

    public boolean leading() {
        return leading;
    }

    public int outbidBeforeAnswer() {
        return outbidBeforeAnswer;
    }
}
