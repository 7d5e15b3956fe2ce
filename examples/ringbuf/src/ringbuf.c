#include <stdlib.h>

#include "ringbuf.h"

struct ringbuf *ringbuf_new(size_t cap)
{
    struct ringbuf *rb = malloc(sizeof *rb);
    if (rb == NULL)
        return NULL;
    rb->cap = cap ? cap : RINGBUF_DEFAULT_CAP;
    rb->items = calloc(rb->cap, sizeof *rb->items);
    if (rb->items == NULL) {
        free(rb);
        return NULL;
    }
    rb->head = 0;
    rb->len = 0;
    return rb;
}

int ringbuf_push(struct ringbuf *rb, int item)
{
    if (rb->len == rb->cap)
        return -1;
    rb->items[(rb->head + rb->len) % rb->cap] = item;
    rb->len++;
    return 0;
}

int ringbuf_pop(struct ringbuf *rb, int *out)
{
    if (rb->len == 0)
        return -1;
    *out = rb->items[rb->head];
    rb->head = (rb->head + 1) % rb->cap;
    rb->len--;
    return 0;
}

void ringbuf_free(struct ringbuf *rb)
{
    if (rb == NULL)
        return;
    free(rb->items);
    free(rb);
}
