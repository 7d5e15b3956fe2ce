package org.example.bookings;

/** Thrown when a new booking shares a night with one already held for the room. */
public class RoomTakenException extends RuntimeException {

    public RoomTakenException(int room) {
        super("room " + room + " is already booked for some of those nights");
    }
}
