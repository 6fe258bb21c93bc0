/* Door lock driver: locks every door above the threshold speed. */
#include "doorlock.h"

void doorlock_update(const struct vehicle *v, struct doors *d)
{
	if (v->speed_kmh >= 15 && !d->locked) {
		doors_lock_all(d);
	}
}
