<?php

declare(strict_types=1);

namespace Invoicer;

use Invoicer\Exception\EmptyInvoiceException;

/**
 * An invoice: numbered lines, one currency, totals with tax.
 */
final class Invoice
{
    public const DEFAULT_CURRENCY = 'EUR';

    /** @var list<Line> */
    private array $lines = [];

    public function __construct(
        public readonly string $number,
        public readonly string $currency = self::DEFAULT_CURRENCY,
    ) {
    }

    public function addLine(string $description, int $quantity, int $unitCents, float $rate = TaxRate::STANDARD): void
    {
        $this->lines[] = new Line($description, $quantity, $unitCents, $rate);
    }

    /** Net amount in cents, before tax. */
    public function subtotal(): int
    {
        return array_sum(array_map(fn (Line $line) => $line->net(), $this->lines));
    }

    /** Gross amount in cents: every line's net amount plus its tax, rounded per line. */
    public function total(): int
    {
        if ($this->lines === []) {
            throw new EmptyInvoiceException($this->number);
        }

        return array_sum(array_map(fn (Line $line) => $line->gross(), $this->lines));
    }
}
