import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createPinia, setActivePinia } from 'pinia'
import { ApiError, type Page, type Trip } from '../../src/api/client'
import { useTripsStore } from '../../src/stores/trips'

// Small, fast settings for the tests; the real defaults are in src/config.ts.
vi.mock('../../src/config', () => ({
  DEFAULT_CITY: { name: 'Berlin', lat: 52.52, lng: 13.405 },
  appConfig: {
    title: 'Atlas (test)',
    apiBaseUrl: 'http://api.test',
    tileUrl: 'http://tiles.test/{z}/{x}/{y}.png',
    analytics: false,
    map: {
      defaultZoom: 14,
      minZoom: 3,
      maxZoom: 18,
      center: { name: 'Berlin', lat: 52.52, lng: 13.405 },
    },
    searchDebounceMs: 0,
    pageSize: 5,
    requestTimeoutMs: 2000,
    requestRetries: 0,
    maxUploadBytes: 1024,
  },
}))

const { fetchTrips, saveTrip, deleteTrip } = vi.hoisted(() => ({
  fetchTrips: vi.fn<[number, number], Promise<Page<Trip>>>(),
  saveTrip: vi.fn<[Trip], Promise<Trip>>(),
  deleteTrip: vi.fn<[string], Promise<void>>(),
}))

vi.mock('../../src/api/client', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/api/client')>()
  return { ...actual, fetchTrips, saveTrip, deleteTrip }
})

function trip(id: string, title = `Trip ${id}`): Trip {
  return {
    id,
    title,
    startDate: '2024-05-01',
    endDate: '2024-05-07',
    stops: [{ id: `${id}-1`, name: 'Porto', lat: 41.1579, lng: -8.6291 }],
    updatedAt: '2024-04-20T10:00:00Z',
  }
}

describe('trips store', () => {
  beforeEach(() => {
    setActivePinia(createPinia())
    vi.clearAllMocks()
  })

  it('loads a page using the configured page size', async () => {
    fetchTrips.mockResolvedValue({ items: [trip('a'), trip('b')], total: 12, page: 1, pageSize: 5 })
    const store = useTripsStore()

    await store.load(1)

    expect(fetchTrips).toHaveBeenCalledWith(1, 5)
    expect(store.trips).toHaveLength(2)
    expect(store.pageCount).toBe(3)
    expect(store.hasNextPage).toBe(true)
    expect(store.loading).toBe(false)
  })

  it('keeps the API error message', async () => {
    fetchTrips.mockRejectedValue(new ApiError('Service unavailable', 503))
    const store = useTripsStore()

    await store.load()

    expect(store.error).toBe('Service unavailable')
    expect(store.trips).toEqual([])
  })

  it('renames a trip with the title trimmed', async () => {
    fetchTrips.mockResolvedValue({ items: [trip('a')], total: 1, page: 1, pageSize: 5 })
    saveTrip.mockImplementation(async (t) => t)
    const store = useTripsStore()
    await store.load()

    await store.rename('a', '  Azores loop  ')

    expect(saveTrip).toHaveBeenCalledWith(expect.objectContaining({ title: 'Azores loop' }))
    expect(store.trips[0].title).toBe('Azores loop')
  })

  it('clears the selection when the selected trip is removed', async () => {
    fetchTrips.mockResolvedValue({ items: [trip('a'), trip('b')], total: 2, page: 1, pageSize: 5 })
    deleteTrip.mockResolvedValue()
    const store = useTripsStore()
    await store.load()
    store.select('b')

    await store.remove('b')

    expect(store.selectedId).toBeNull()
    expect(store.total).toBe(1)
    expect(store.trips.map((t) => t.id)).toEqual(['a'])
  })
})
