<?php

declare(strict_types=1);

namespace Invoicer;

/**
 * VAT rates of the Netherlands.
 */
final class TaxRate
{
    public const STANDARD = 0.21;
    public const REDUCED = 0.09;
    public const ZERO = 0.0;
}
