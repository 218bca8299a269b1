# ptbench plot --kind trials: each point's trials, one strip per run.
# Written by ptbench with trials.dat; to draw it again, restyled:
#     gnuplot trials.gp > trials.svg
set terminal svg size 960,504 dynamic noenhanced font 'sans,11' background rgb 'white'
set encoding utf8
set datafile missing 'NaN'
set logscale x
set xrange [0.001:100]
set yrange [12.5:-0.5] reverse
set tmargin 4
set key outside above center vertical maxrows 2
set xlabel 'µs (log scale); dots: trials; stroke: the point''s figure'
set grid xtics mxtics lc rgb '#dddddd'
set ytics scale 0 font ',9'
set ytics ()
set ytics add ("Thread Create: Detached, system scope" 0)
set ytics add ("Thread Yield" 1)
set ytics add ("Condition Signal" 2)
set ytics add ("Mutex Ping-pong: Unbound" 3)
set ytics add ("Mutex Ping-pong: Same CPU" 4)
set ytics add ("Mutex Ping-pong: Different CPUs (cross_core)" 5)
set ytics add ("Mutex lock and unlock" 6)
set ytics add ("Mutex lock and unlock, single-threaded process" 7)
set ytics add ("Mutex lock: at least 16 mutexes" 8)
set ytics add ("Mutex lock: at least 1024 mutexes" 9)
set ytics add ("Mutex unlock: at least 1024 mutexes" 10)
set ytics add ("create.join" 11)
set ytics add ("Mutex gap: Different CPUs (cross_core)" 12)
plot \
  'trials.dat' index 0 using 2:1 with points pt 7 ps 0.4 lc rgb '#0072b2' title "vm", \
  'trials.dat' index 1 using 2:($1-0.2000):(0):(0.4000) with vectors nohead lw 2 lc rgb '#333333' notitle, \
  'trials.dat' index 2 using 2:1 with points pt 7 ps 0.4 lc rgb '#e69f00' title "golden-host (timings of one measurement)", \
  'trials.dat' index 3 using 2:($1-0.2000):(0):(0.4000) with vectors nohead lw 2 lc rgb '#333333' notitle
