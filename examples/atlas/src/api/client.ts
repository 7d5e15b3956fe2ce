import axios, { AxiosError, type AxiosInstance } from 'axios'
import axiosRetry, { exponentialDelay, isNetworkOrIdempotentRequestError } from 'axios-retry'
import { appConfig } from '../config'

export interface Stop {
  id: string
  name: string
  lat: number
  lng: number
  arrival?: string
}

export interface Trip {
  id: string
  title: string
  startDate: string
  endDate: string
  stops: Stop[]
  updatedAt: string
}

export interface Page<T> {
  items: T[]
  total: number
  page: number
  pageSize: number
}

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

export function createClient(baseURL: string = appConfig.apiBaseUrl): AxiosInstance {
  const client = axios.create({
    baseURL,
    timeout: appConfig.requestTimeoutMs,
    headers: { Accept: 'application/json' },
    withCredentials: true,
  })

  axiosRetry(client, {
    retries: appConfig.requestRetries,
    retryDelay: exponentialDelay,
    retryCondition: (error) =>
      isNetworkOrIdempotentRequestError(error) || error.code === AxiosError.ECONNABORTED,
  })

  client.interceptors.response.use(
    (response) => response,
    (error: AxiosError<{ message?: string }>) => {
      const status = error.response?.status
      const message = error.response?.data?.message ?? error.message
      return Promise.reject(new ApiError(message, status))
    },
  )

  return client
}

export const api = createClient()

export async function fetchTrips(page: number, pageSize: number = appConfig.pageSize) {
  const { data } = await api.get<Page<Trip>>('/trips', { params: { page, pageSize } })
  return data
}

export async function saveTrip(trip: Trip) {
  const { data } = await api.put<Trip>(`/trips/${trip.id}`, trip)
  return data
}

export async function deleteTrip(id: string) {
  await api.delete(`/trips/${id}`)
}

export async function searchPlaces(query: string, signal?: AbortSignal) {
  const { data } = await api.get<Stop[]>('/places/search', { params: { q: query }, signal })
  return data
}

export async function uploadAttachment(tripId: string, stopId: string, file: File) {
  if (file.size > appConfig.maxUploadBytes) {
    throw new ApiError(`${file.name} is larger than the upload limit`, 413)
  }
  const form = new FormData()
  form.append('file', file)
  const { data } = await api.post<{ url: string }>(
    `/trips/${tripId}/stops/${stopId}/attachments`,
    form,
  )
  return data.url
}
