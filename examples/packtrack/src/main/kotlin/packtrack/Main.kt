package packtrack

import kotlinx.coroutines.runBlocking
import kotlin.system.exitProcess

fun main(args: Array<String>) {
    if (args.size < 2 || args[0] != "track") {
        System.err.println("usage: packtrack track <tracking-id> [--carrier DHL|UPS|FEDEX|POSTNL]")
        exitProcess(2)
    }
    val carrier = args.indexOf("--carrier").takeIf { it >= 0 }?.let { Carrier.valueOf(args[it + 1]) }
    val shipment = runBlocking { Tracker().track(args[1], carrier) }
    println("${shipment.trackingId} (${shipment.carrier.displayName}): ${shipment.status}")
    shipment.lastEvent()?.let { println("  ${it.at}  ${it.location}  ${it.description}") }
    if (shipment.isLate()) println("  late: promised by ${shipment.promisedBy}")
}
