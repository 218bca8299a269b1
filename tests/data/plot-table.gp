# ptbench plot --kind table: the Table-1 rows, one bar per run.
# Written by ptbench with table.dat; to draw it again, restyled:
#     gnuplot table.gp > table.svg
set terminal svg size 960,428 dynamic noenhanced font 'sans,11' background rgb 'white'
set encoding utf8
set datafile missing 'NaN'
set logscale x
set xrange [0.001:100]
set yrange [11.5:-0.5] reverse
set tmargin 4
set key outside above center vertical maxrows 2
set xlabel 'µs (log scale); error bars: the 95 % CI'
set grid xtics mxtics lc rgb '#dddddd'
set ytics scale 0 font ',9'
set ytics ()
set ytics add ("Thread Create: Detached, system scope" 0)
set ytics add ("Thread Create: Detached, process scope" 1)
set ytics add ("Thread Yield" 2)
set ytics add ("Condition Signal" 3)
set ytics add ("Mutex Ping-pong: Unbound" 4)
set ytics add ("Mutex Ping-pong: Same CPU" 5)
set ytics add ("Mutex Ping-pong: Different CPUs (cross_core)" 6)
set ytics add ("Mutex lock and unlock" 7)
set ytics add ("Mutex lock and unlock, single-threaded process" 8)
set ytics add ("Mutex lock: at least 16 mutexes" 9)
set ytics add ("Mutex lock: at least 1024 mutexes" 10)
set ytics add ("Mutex unlock: at least 1024 mutexes" 11)
plot \
  'table.dat' index 0 using (0.001):1:(0.001):2:($1-0.1700):($1+0.1700) with boxxyerror fs solid 0.8 noborder lc rgb '#0072b2' title "vm", \
  'table.dat' index 0 using 2:1:3:4 with xerrorbars pt -1 lc rgb '#333333' notitle, \
  'table.dat' index 1 using (0.001):1:(0.001):2:($1-0.1700):($1+0.1700) with boxxyerror fs solid 0.8 noborder lc rgb '#e69f00' title "golden-host", \
  'table.dat' index 1 using 2:1:3:4 with xerrorbars pt -1 lc rgb '#333333' notitle, \
  'table.dat' index 2 using (0.001):1:('N/A') with labels left offset 0.5,0 font ',8' notitle
