<?php

declare(strict_types=1);

namespace Invoicer\Exception;

/**
 * Thrown when a total is asked of an invoice without lines.
 */
final class EmptyInvoiceException extends \RuntimeException
{
    public function __construct(string $number)
    {
        parent::__construct("Invoice {$number} has no lines");
    }
}
