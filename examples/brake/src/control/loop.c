/* Brake pressure control loop: reads the pedal, looks up the target
 * pressure in the pedal map and drives the valve (BRK-IMPL-CTRL). */
#include "pedal_map.h"

void control_step(const struct pedal *pedal, struct valve *valve)
{
	double target = pedal_map_pressure(pedal->travel_mm);
	valve_set_pressure(valve, target);
}
