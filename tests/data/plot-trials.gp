# ptbench plot --kind trials: each point's trials, one strip per run, a panel per family.
# Written by ptbench with trials.dat; to draw it again, restyled:
#     gnuplot trials.gp > trials.svg
set terminal svg size 960,700 dynamic noenhanced font 'sans,11' background rgb 'white'
set encoding utf8
set datafile missing 'NaN'
set lmargin 39
set multiplot

# panel 1
set origin 0,0.75143
set size 1,0.24857
set logscale x
set xrange [10:100]
set yrange [1.5:-0.5] reverse
set tmargin 4
set key outside above center vertical maxrows 2
set xlabel 'µs (log scale); dots: trials; stroke: the point''s figure'
set grid xtics mxtics lc rgb '#dddddd'
set ytics scale 0 font ',9'
set ytics ()
set ytics add ("Thread Create: Detached, system scope" 0)
set ytics add ("create.join" 1)
set tmargin 5
unset xlabel
set title "create" font ',10'
plot \
  NaN with points pt 7 ps 0.4 lc rgb '#0072b2' title "vm", \
  'trials.dat' index 0 using 2:1 with points pt 7 ps 0.4 lc rgb '#0072b2' notitle, \
  'trials.dat' index 1 using 2:($1-0.2000):(0):(0.4000) with vectors nohead lw 2 lc rgb '#333333' notitle, \
  NaN with points pt 7 ps 0.4 lc rgb '#e69f00' title "golden-host (timings of one measurement)", \
  'trials.dat' index 2 using 2:1 with points pt 7 ps 0.4 lc rgb '#e69f00' notitle, \
  'trials.dat' index 3 using 2:($1-0.2000):(0):(0.4000) with vectors nohead lw 2 lc rgb '#333333' notitle

# panel 2
set origin 0,0.63143
set size 1,0.12000
set logscale x
set xrange [0.1:1]
set yrange [0.5:-0.5] reverse
set tmargin 4
set key outside above center vertical maxrows 2
set xlabel 'µs (log scale); dots: trials; stroke: the point''s figure'
set grid xtics mxtics lc rgb '#dddddd'
set ytics scale 0 font ',9'
set ytics ()
set ytics add ("Thread Yield" 0)
unset key
set tmargin 2
unset xlabel
set title "yield" font ',10'
plot \
  'trials.dat' index 4 using 2:1 with points pt 7 ps 0.4 lc rgb '#0072b2' notitle, \
  'trials.dat' index 5 using 2:($1-0.2000):(0):(0.4000) with vectors nohead lw 2 lc rgb '#333333' notitle, \
  'trials.dat' index 6 using 2:1 with points pt 7 ps 0.4 lc rgb '#e69f00' notitle, \
  'trials.dat' index 7 using 2:($1-0.2000):(0):(0.4000) with vectors nohead lw 2 lc rgb '#333333' notitle

# panel 3
set origin 0,0.51143
set size 1,0.12000
set logscale x
set xrange [0.001:0.01]
set yrange [0.5:-0.5] reverse
set tmargin 4
set key outside above center vertical maxrows 2
set xlabel 'µs (log scale); dots: trials; stroke: the point''s figure'
set grid xtics mxtics lc rgb '#dddddd'
set ytics scale 0 font ',9'
set ytics ()
set ytics add ("Condition Signal" 0)
unset key
set tmargin 2
unset xlabel
set title "cond" font ',10'
plot \
  'trials.dat' index 8 using 2:1 with points pt 7 ps 0.4 lc rgb '#0072b2' notitle, \
  'trials.dat' index 9 using 2:($1-0.2000):(0):(0.4000) with vectors nohead lw 2 lc rgb '#333333' notitle, \
  'trials.dat' index 10 using 2:1 with points pt 7 ps 0.4 lc rgb '#e69f00' notitle, \
  'trials.dat' index 11 using 2:($1-0.2000):(0):(0.4000) with vectors nohead lw 2 lc rgb '#333333' notitle

# panel 4
set origin 0,0.00000
set size 1,0.51143
set logscale x
set xrange [0.001:100]
set yrange [8.5:-0.5] reverse
set tmargin 4
set key outside above center vertical maxrows 2
set xlabel 'µs (log scale); dots: trials; stroke: the point''s figure'
set grid xtics mxtics lc rgb '#dddddd'
set ytics scale 0 font ',9'
set ytics ()
set ytics add ("Mutex Ping-pong: Unbound" 0)
set ytics add ("Mutex Ping-pong: Same CPU" 1)
set ytics add ("Mutex Ping-pong: Different CPUs (cross_core)" 2)
set ytics add ("Mutex lock and unlock" 3)
set ytics add ("Mutex lock and unlock, single-threaded process" 4)
set ytics add ("Mutex lock: at least 16 mutexes" 5)
set ytics add ("Mutex lock: at least 1024 mutexes" 6)
set ytics add ("Mutex unlock: at least 1024 mutexes" 7)
set ytics add ("Mutex gap: Different CPUs (cross_core)" 8)
unset key
set tmargin 2
set title "mutex" font ',10'
plot \
  'trials.dat' index 12 using 2:1 with points pt 7 ps 0.4 lc rgb '#0072b2' notitle, \
  'trials.dat' index 13 using 2:($1-0.2000):(0):(0.4000) with vectors nohead lw 2 lc rgb '#333333' notitle, \
  'trials.dat' index 14 using 2:1 with points pt 7 ps 0.4 lc rgb '#e69f00' notitle, \
  'trials.dat' index 15 using 2:($1-0.2000):(0):(0.4000) with vectors nohead lw 2 lc rgb '#333333' notitle
unset multiplot
