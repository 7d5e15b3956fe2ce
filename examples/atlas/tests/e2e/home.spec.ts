import { expect, test } from '@playwright/test'

test.beforeEach(async ({ page }) => {
  await page.route(/\/trips\?/, (route) =>
    route.fulfill({
      json: {
        items: [
          {
            id: 't1',
            title: 'Douro valley',
            startDate: '2024-06-10',
            endDate: '2024-06-14',
            stops: [
              { id: 's1', name: 'Porto', lat: 41.1579, lng: -8.6291 },
              { id: 's2', name: 'Pinhão', lat: 41.1906, lng: -7.5464 },
            ],
            updatedAt: '2024-05-02T08:30:00Z',
          },
        ],
        total: 1,
        page: 1,
        pageSize: 20,
      },
    }),
  )
})

test('shows the trip list and the map', async ({ page }) => {
  await page.goto('/')
  await expect(page.getByText('Douro valley')).toBeVisible()
  await expect(page.getByTestId('map')).toBeVisible()
})

test('selecting a trip shows its stops', async ({ page }) => {
  await page.goto('/')
  await page.getByText('Douro valley').click()
  await expect(page.getByText('Douro valley — 2 stops')).toBeVisible()
})
