#include <assert.h>
#include <stdio.h>

#include "ringbuf.h"

static void test_push_then_pop(void)
{
    struct ringbuf *rb = ringbuf_new(2);
    int out = 0;
    assert(ringbuf_push(rb, 7) == 0);
    assert(ringbuf_pop(rb, &out) == 0);
    assert(out == 7);
    ringbuf_free(rb);
}

static void test_full_buffer_refuses(void)
{
    struct ringbuf *rb = ringbuf_new(1);
    assert(ringbuf_push(rb, 1) == 0);
    assert(ringbuf_push(rb, 2) == -1);
    ringbuf_free(rb);
}

static void test_empty_pop_fails(void)
{
    struct ringbuf *rb = ringbuf_new(0);
    int out = 0;
    assert(rb->cap == RINGBUF_DEFAULT_CAP);
    assert(ringbuf_pop(rb, &out) == -1);
    ringbuf_free(rb);
}

int main(void)
{
    test_push_then_pop();
    test_full_buffer_refuses();
    test_empty_pop_fails();
    puts("all tests passed");
    return 0;
}
