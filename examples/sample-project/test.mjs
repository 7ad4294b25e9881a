// Run with `node test.mjs`: prints each check and exits 1 if one fails.
import { celsiusToFahrenheit, fahrenheitToCelsius, formatForecast } from './src/temperature.mjs';

const checks = [
  ['0°C is 32°F', celsiusToFahrenheit(0) === 32],
  ['100°C is 212°F', celsiusToFahrenheit(100) === 212],
  ['212°F is 100°C', fahrenheitToCelsius(212) === 100],
  ['forecast line', formatForecast([{ day: 'Mon', celsius: 21 }]) === 'Mon 21°C / 70°F'],
];
let failed = 0;
for (const [name, ok] of checks) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}`);
  if (!ok) failed++;
}
process.exit(failed ? 1 : 0);
