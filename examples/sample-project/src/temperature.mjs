// Temperature helpers for the forecast line.

export function celsiusToFahrenheit(celsius) {
  return (celsius * 9) / 5 + 32;
}

export function fahrenheitToCelsius(fahrenheit) {
  // Bug on purpose, for a first session: the offset is subtracted after the scaling.
  return (fahrenheit * 5) / 9 - 32;
}

/** One line per day: "Mon 21°C / 70°F". */
export function formatForecast(days) {
  return days
    .map(({ day, celsius }) => `${day} ${Math.round(celsius)}°C / ${Math.round(celsiusToFahrenheit(celsius))}°F`)
    .join('\n');
}
