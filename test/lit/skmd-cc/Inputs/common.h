// Included through -I by options.cl.
#define TWICE(x) ((x) * FACTOR)
