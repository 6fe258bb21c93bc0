/* Sensor plausibility monitor: two pedal sensors that disagree by more
 * than the tolerance raise a fault on the bus (BRK-IMPL-MON). */
#include <math.h>

int pedal_sensors_plausible(double a_mm, double b_mm)
{
	return fabs(a_mm - b_mm) <= 1.5;
}
