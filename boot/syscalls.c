/* SPDX-License-Identifier: MIT */
/* newlib-nano is used for string and formatting functions only, and nothing in fiqmon may
 * allocate: the heap is refused outright, should any library path ever ask for it. */
#include <errno.h>
#include <stddef.h>

void *_sbrk(ptrdiff_t increment);

void *_sbrk(ptrdiff_t increment)
{
    (void)increment;
    errno = ENOMEM;
    return (void *)-1;
}
