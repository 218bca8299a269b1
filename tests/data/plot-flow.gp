# ptbench plot --kind flow: each thread of a simulated run over time.
# Written by ptbench with flow.dat; to draw it again, restyled:
#     gnuplot flow.gp > flow.svg
set terminal svg size 900,206 dynamic noenhanced font 'sans,11' background rgb 'white'
set encoding utf8
set datafile missing 'NaN'
set title "made on 2 CPUs: what each thread does"
set xlabel 'time in the simulated run (ms)'
set xrange [0:*]
set yrange [2.5:-0.5]
set key outside above center horizontal
set grid xtics lc rgb '#dddddd'
set ytics scale 0 ()
set ytics add ('thread 0' 0)
set ytics add ('thread 1' 1)
set ytics add ('thread 2' 2)
plot  'flow.dat' index 0 using 2:1:($3-$2):(0) with vectors nohead lw 14 lc rgb '#009e73' title 'running', \
     'flow.dat' index 1 using 2:1:($3-$2):(0) with vectors nohead lw 14 lc rgb '#e69f00' title 'ready (sharing the CPUs)', \
     'flow.dat' index 2 using 2:1:($3-$2):(0) with vectors nohead lw 14 lc rgb '#cc79a7' title 'blocked (waiting for a thread)', \
     'flow.dat' index 3 using 2:1:($3-$2):(0) with vectors nohead lw 14 lc rgb '#56b4e9' title 'sleeping (its own delay)', \
    'flow.dat' index 4 using 1:2:(0):($3-$2) with vectors head filled size screen 0.006,20 lw 0.6 lc rgb '#000000' title 'wake-up'
