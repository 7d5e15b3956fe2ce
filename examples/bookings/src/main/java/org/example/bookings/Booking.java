package org.example.bookings;

import java.time.LocalDate;
import java.time.temporal.ChronoUnit;

/** One guest's stay in one room, from the arrival night up to the departure day. */
public record Booking(String guest, int room, LocalDate arrival, LocalDate departure) {

    /** The longest stay a single booking may span, in nights. */
    public static final int MAX_NIGHTS = 14;

    public Booking {
        if (!departure.isAfter(arrival)) {
            throw new IllegalArgumentException("departure must be after arrival");
        }
        if (nights(arrival, departure) > MAX_NIGHTS) {
            throw new IllegalArgumentException("a booking spans at most " + MAX_NIGHTS + " nights");
        }
    }

    /** The number of nights of the stay. */
    public long nights() {
        return nights(arrival, departure);
    }

    /** Whether this stay shares a night with the other one in the same room. */
    public boolean overlaps(Booking other) {
        return room == other.room
                && arrival.isBefore(other.departure)
                && other.arrival.isBefore(departure);
    }

    private static long nights(LocalDate from, LocalDate to) {
        return ChronoUnit.DAYS.between(from, to);
    }
}
