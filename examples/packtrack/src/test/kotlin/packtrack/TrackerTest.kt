package packtrack

import kotlin.test.Test
import kotlin.test.assertEquals
import kotlin.test.assertNull

class TrackerTest {
    @Test
    fun `guesses UPS from a 1Z id`() {
        assertEquals(Carrier.UPS, Carrier.guess("1Z999AA10123456784"))
    }

    @Test
    fun `no guess for a bare number`() {
        assertNull(Carrier.guess("123456789012"))
    }

    @Test
    fun `a delivered shipment is never late`() {
        val s = Shipment("JD014600", Carrier.DHL, Status.DELIVERED, promisedBy = "2020-01-01T00:00:00Z")
        assertEquals(false, s.isLate())
    }
}
