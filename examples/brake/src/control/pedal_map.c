/* The pedal map: pedal travel (mm) to target brake pressure (bar),
 * interpolated between the calibration points (BRK-SREQ-010). */
static const double travel_mm[] = {0, 10, 20, 30, 40};
static const double pressure_bar[] = {0, 5, 20, 45, 80};

double pedal_map_pressure(double travel)
{
	for (int i = 1; i < 5; i++) {
		if (travel <= travel_mm[i]) {
			double f = (travel - travel_mm[i - 1]) / (travel_mm[i] - travel_mm[i - 1]);
			return pressure_bar[i - 1] + f * (pressure_bar[i] - pressure_bar[i - 1]);
		}
	}
	return pressure_bar[4];
}
