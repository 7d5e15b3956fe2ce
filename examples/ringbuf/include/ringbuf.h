#ifndef RINGBUF_H
#define RINGBUF_H

#include <stddef.h>

/* Capacity used by ringbuf_new when 0 is passed. */
#define RINGBUF_DEFAULT_CAP 64

struct ringbuf {
    int *items;
    size_t cap;
    size_t head;
    size_t len;
};

/* Allocates a buffer of `cap` items (RINGBUF_DEFAULT_CAP when 0); NULL when out of memory. */
struct ringbuf *ringbuf_new(size_t cap);

/* Appends `item`; returns 0, or -1 when the buffer is full. */
int ringbuf_push(struct ringbuf *rb, int item);

/* Removes the oldest item into `out`; returns 0, or -1 when the buffer is empty. */
int ringbuf_pop(struct ringbuf *rb, int *out);

/* Frees the buffer and its items. */
void ringbuf_free(struct ringbuf *rb);

#endif
