<?php

declare(strict_types=1);

namespace Invoicer\Tests;

use Invoicer\Exception\EmptyInvoiceException;
use Invoicer\Invoice;
use Invoicer\TaxRate;
use PHPUnit\Framework\TestCase;

final class InvoiceTest extends TestCase
{
    public function testTotalAddsTaxPerLine(): void
    {
        $invoice = new Invoice('2024-001');
        $invoice->addLine('Coffee beans', 2, 1250);
        $invoice->addLine('Bread', 1, 300, TaxRate::REDUCED);

        $this->assertSame(2800, $invoice->subtotal());
        $this->assertSame(3352, $invoice->total());
    }

    public function testEmptyInvoiceHasNoTotal(): void
    {
        $this->expectException(EmptyInvoiceException::class);
        (new Invoice('2024-002'))->total();
    }
}
