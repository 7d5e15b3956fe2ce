<?php

declare(strict_types=1);

namespace Invoicer;

/**
 * One line of an invoice; amounts are in cents.
 */
final class Line
{
    public function __construct(
        public readonly string $description,
        public readonly int $quantity,
        public readonly int $unitCents,
        public readonly float $rate,
    ) {
    }

    public function net(): int
    {
        return $this->quantity * $this->unitCents;
    }

    public function gross(): int
    {
        return (int) round($this->net() * (1 + $this->rate));
    }
}
