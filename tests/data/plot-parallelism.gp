# ptbench plot --kind parallelism: running and ready threads of a simulated run over time.
# Written by ptbench with parallelism.dat; to draw it again, restyled:
#     gnuplot parallelism.gp > parallelism.svg
set terminal svg size 900,420 dynamic noenhanced font 'sans,11' background rgb 'white'
set encoding utf8
set datafile missing 'NaN'
set title "made on 2 CPUs: running and ready threads"
set xlabel 'time in the simulated run (ms)'
set ylabel 'threads'
set xrange [0:*]
set yrange [0:*]
set key outside above center horizontal
set grid lc rgb '#dddddd'
plot 'parallelism.dat' using 1:($2+$3) with fillsteps fs solid 0.6 noborder lc rgb '#e69f00' title 'ready', \
    'parallelism.dat' using 1:2 with fillsteps fs solid 0.8 noborder lc rgb '#009e73' title 'running', \
    2 with lines dt 2 lw 1.5 lc rgb '#000000' title '2 CPUs'
