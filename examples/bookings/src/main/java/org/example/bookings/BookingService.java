package org.example.bookings;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/** Holds the bookings of the guest house and keeps rooms from being booked twice. */
public class BookingService {

    private final int rooms;
    private final List<Booking> bookings = new ArrayList<>();

    public BookingService(int rooms) {
        this.rooms = rooms;
    }

    /** Books the room, or throws RoomTakenException when any night is already taken. */
    public Booking book(String guest, int room, LocalDate arrival, LocalDate departure) {
        if (room < 1 || room > rooms) {
            throw new IllegalArgumentException("no room " + room);
        }
        Booking wanted = new Booking(guest, room, arrival, departure);
        for (Booking held : bookings) {
            if (held.overlaps(wanted)) {
                throw new RoomTakenException(room);
            }
        }
        bookings.add(wanted);
        return wanted;
    }

    /** Removes the guest's booking for the room; returns false when there was none. */
    public boolean cancel(String guest, int room) {
        return bookings.removeIf(b -> b.guest().equals(guest) && b.room() == room);
    }

    /** The bookings that hold a room on the given night. */
    public List<Booking> staying(LocalDate night) {
        List<Booking> in = new ArrayList<>();
        for (Booking b : bookings) {
            if (!night.isBefore(b.arrival()) && night.isBefore(b.departure())) {
                in.add(b);
            }
        }
        return in;
    }
}
