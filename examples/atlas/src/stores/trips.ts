import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import { ApiError, deleteTrip, fetchTrips, saveTrip, type Trip } from '../api/client'
import { appConfig } from '../config'

export const useTripsStore = defineStore('trips', () => {
  const trips = ref<Trip[]>([])
  const total = ref(0)
  const page = ref(1)
  const pageSize = ref<number>(appConfig.pageSize)
  const selectedId = ref<string | null>(null)
  const loading = ref(false)
  const error = ref<string | null>(null)

  const selected = computed(() => trips.value.find((t) => t.id === selectedId.value) ?? null)
  const pageCount = computed(() => Math.max(1, Math.ceil(total.value / pageSize.value)))
  const hasNextPage = computed(() => page.value < pageCount.value)

  async function load(p = page.value) {
    loading.value = true
    error.value = null
    try {
      const result = await fetchTrips(p, pageSize.value)
      trips.value = result.items
      total.value = result.total
      page.value = result.page
    } catch (e) {
      error.value = e instanceof ApiError ? e.message : 'Could not load trips'
    } finally {
      loading.value = false
    }
  }

  function select(id: string | null) {
    selectedId.value = id
  }

  async function rename(id: string, title: string) {
    const trip = trips.value.find((t) => t.id === id)
    if (!trip) return
    const saved = await saveTrip({ ...trip, title: title.trim() })
    trips.value = trips.value.map((t) => (t.id === id ? saved : t))
  }

  async function remove(id: string) {
    await deleteTrip(id)
    trips.value = trips.value.filter((t) => t.id !== id)
    total.value = Math.max(0, total.value - 1)
    if (selectedId.value === id) selectedId.value = null
  }

  return {
    trips,
    total,
    page,
    pageSize,
    selectedId,
    loading,
    error,
    selected,
    pageCount,
    hasNextPage,
    load,
    select,
    rename,
    remove,
  }
})
