-- Revenue per month, in euros.
SELECT substr(placed_at, 1, 7) AS month,
       round(sum(total_cents) / 100.0, 2) AS revenue
FROM orders
GROUP BY month
ORDER BY month;
