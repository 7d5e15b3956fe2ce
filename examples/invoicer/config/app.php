<?php

return [
    'name' => 'Invoicer',
    'timezone' => 'Europe/Amsterdam',
    'locale' => 'nl_NL',
    // invoices listed per page in the overview
    'per_page' => 25,
    'due_days' => 30,
];
