package org.example.bookings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.LocalDate;
import org.junit.jupiter.api.Test;

class BookingServiceTest {

    private final LocalDate may1 = LocalDate.of(2026, 5, 1);

    @Test
    void booksAFreeRoom() {
        BookingService service = new BookingService(6);
        Booking b = service.book("Ada", 2, may1, may1.plusDays(3));
        assertEquals(3, b.nights());
    }

    @Test
    void rejectsOverlappingBooking() {
        BookingService service = new BookingService(6);
        service.book("Ada", 2, may1, may1.plusDays(3));
        assertThrows(RoomTakenException.class,
                () -> service.book("Grace", 2, may1.plusDays(2), may1.plusDays(4)));
    }

    @Test
    void cancelOfUnknownBookingReturnsFalse() {
        BookingService service = new BookingService(6);
        assertFalse(service.cancel("Nobody", 1));
    }
}
